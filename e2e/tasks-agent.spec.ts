// A real agent's long call becomes a task: the SDK client calls the demo's export (about 3 s, with progress)
// through /mcp, gets a task id after the 1 s threshold, and its user watches the task run and finish on the
// Tasks page without reloading; the agent then fetches the result with get_task_result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "./fixtures";
import type { TCreatedSession } from "@/lib/policy-schemas";
import { signInAsAdmin } from "./helpers";

const TOOL = "orders__export_orders";

test("an agent's long call is answered with a task id and its user follows it to the result", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const agentId = `exporter-${Math.random().toString(36).slice(2, 7)}`;
  const res = await page.request.post("/api/v1/sessions", { data: { agentId, tools: [TOOL] } });
  expect(res.status(), await res.text()).toBe(201);
  const session = (await res.json()) as TCreatedSession;

  const client = new Client({ name: agentId, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", baseURL), { requestInit: { headers: { authorization: `Bearer ${session.token}` } } }),
  );
  try {
    const answer = await client.callTool({ name: TOOL, arguments: { format: "csv" } });
    const handle = answer.structuredContent as { task_id: string; status: string };
    expect(handle.status).toBe("RUNNING");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
    const row = page.locator(`[data-testid="task-row"][data-id="${handle.task_id}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("task-status")).toHaveText("Succeeded", { timeout: 20_000 });

    await row.getByRole("link", { name: TOOL }).click();
    await expect(page.getByRole("heading", { level: 1, name: TOOL })).toBeVisible();
    await expect(page.getByTestId("task-result")).toContainText("id,customer_name,customer_email,status");
    await expect(page.getByRole("list", { name: "Task events" })).toContainText(/started/i);

    const status = await client.callTool({ name: "get_task_status", arguments: { task_id: handle.task_id } });
    // The last progress step may race the result inside the SDK client, so 9 or 10 of 10.
    expect(status.structuredContent).toMatchObject({ status: "SUCCEEDED", total: 10 });
    expect((status.structuredContent as { progress: number }).progress).toBeGreaterThanOrEqual(9);
    const result = await client.callTool({ name: "get_task_result", arguments: { task_id: handle.task_id } });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text.split("\n")[0]).toBe("id,customer_name,customer_email,status,total_cents,currency");
  } finally {
    await client.close();
  }
});
