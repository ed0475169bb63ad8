// Code mode through the gateway: (3b) an inner call's cost over the pipeline's own, (4) parallel inner calls,
// (6) a 10-call workflow as one execute_code against ten direct tools/call requests, both over HTTP.
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connectAgent } from "../../server/test/gateway-harness";
import type { BenchGateway } from "./gateway";
import { jsonTokens, tokens } from "./tokens";

const fresh = (bg: BenchGateway) => ({ ...bg.user, requestId: randomUUID() });

export type PipelineBridgeResult = {
  tool: string;
  calls: number;
  reps: number;
  /** Per call, each rep: the program's run time not spent inside the pipeline, (durationMs − Σ inner call times) / N. */
  overheadUs: number[];
  /** Per call, each rep: inside the pipeline, as the program runner timed each inner call (resolve → pipeline). */
  innerMs: number[];
  /** Per call, each rep: the run's durationMs / N. */
  programMs: number[];
  /** Per call, each rep: direct calls through the same pipeline (tryToolCall), timed around each. */
  directMs: number[];
};

/**
 * The same upstream call N times, from one program (the console playground's path: runProgram → bridge →
 * pipeline, endpoint "console") and as N direct pipeline calls (tryToolCall: resolve → pipeline, the same grant
 * and endpoint), alternating. The runner times every inner call from the bridge's side (InnerCall.durationMs), so
 * the bridge's share is paired within one run: the program's run time minus the time its calls spent in the pipeline.
 */
export async function measurePipelineBridge(bg: BenchGateway, tool: string, args: Record<string, unknown>, calls: number, reps: number): Promise<PipelineBridgeResult> {
  const [server, name] = tool.split("__") as [string, string];
  const code = `let last; for (let i = 0; i < ${String(calls)}; i++) last = await tools[${JSON.stringify(server)}][${JSON.stringify(name)}](${JSON.stringify(args)}); return last.isError ? "error" : "ok";`;
  const out: PipelineBridgeResult = { tool, calls, reps, overheadUs: [], innerMs: [], programMs: [], directMs: [] };
  const program = async () => {
    const r = await bg.gateway.codeMode.run(fresh(bg), { code, language: "js" });
    if (r.error || r.result !== "ok" || r.calls.length !== calls) throw new Error(`program failed: ${JSON.stringify(r.error ?? r.result)}`);
    const inner = r.calls.reduce((s, c) => s + c.durationMs, 0);
    return { overheadUs: ((r.durationMs - inner) / calls) * 1000, innerMs: inner / calls, programMs: r.durationMs / calls };
  };
  const direct = async () => {
    const t = performance.now();
    for (let i = 0; i < calls; i++) {
      const r = await bg.gateway.tryToolCall(fresh(bg), tool, args);
      if (r.isError) throw new Error(`direct call failed: ${JSON.stringify(r.content)}`);
    }
    return (performance.now() - t) / calls;
  };
  for (let rep = -2; rep < reps; rep++) {
    // Alternating who goes first, so drifting load falls on both alike.
    let p: Awaited<ReturnType<typeof program>>, d: number;
    if (rep % 2 === 0) {
      p = await program();
      d = await direct();
    } else {
      d = await direct();
      p = await program();
    }
    if (rep < 0) continue;
    out.overheadUs.push(p.overheadUs);
    out.innerMs.push(p.innerMs);
    out.programMs.push(p.programMs);
    out.directMs.push(d);
  }
  return out;
}

export type ParallelResult = { ms: number; parallel: number; ratios: number[]; totals: number[]; slowest: number[]; singles: number[] };

/**
 * Over HTTP on /mcp/code: one program runs `parallel` calls of ops.slow_read({ ms }) with Promise.all and times each
 * call and the whole inside the VM; a second program makes one such call (the single-call reference).
 */
export async function measureParallel(bg: BenchGateway, ms: number, parallel: number, reps: number): Promise<ParallelResult> {
  const agent = await connectAgent(bg.codeUrl, bg.token);
  const exec = async (code: string) => {
    const r = await agent.client.callTool({ name: "execute_code", arguments: { code, language: "js" } }, undefined, { timeout: 60_000 });
    const run = r.structuredContent as { result?: unknown; error?: unknown };
    if (r.isError || run.error) throw new Error(`execute_code failed: ${JSON.stringify(run.error ?? r.content)}`);
    return run.result;
  };
  const many = `const t0 = Date.now();
const each = await Promise.all(Array.from({ length: ${String(parallel)} }, async (_, i) => {
  const t = Date.now();
  await tools.ops.slow_read({ ms: ${String(ms)}, tag: "par" + i });
  return Date.now() - t;
}));
return { total: Date.now() - t0, slowest: Math.max(...each) };`;
  const one = `const t = Date.now(); await tools.ops.slow_read({ ms: ${String(ms)}, tag: "one" }); return Date.now() - t;`;
  const out: ParallelResult = { ms, parallel, ratios: [], totals: [], slowest: [], singles: [] };
  try {
    for (let rep = -1; rep < reps; rep++) {
      const r = (await exec(many)) as { total: number; slowest: number };
      const single = (await exec(one)) as number;
      if (rep < 0) continue;
      out.totals.push(r.total);
      out.slowest.push(r.slowest);
      out.singles.push(single);
      out.ratios.push(r.total / r.slowest);
    }
  } finally {
    await agent.close();
  }
  return out;
}

/** The ten steps: each call's arguments come from what the calls before it answered. */
export const WORKFLOW_TOOLS = [
  "tickets__search_ticket",
  "tickets__get_ticket",
  "crm__search_contact",
  "crm__get_contact",
  "orders__search_order",
  "orders__get_order",
  "billing__search_invoice",
  "billing__get_invoice",
  "orders__search_return",
  "tickets__update_ticket",
];

export const WORKFLOW_PROGRAM = `const data = (r) => (r && Array.isArray(r.content) ? JSON.parse(r.content[0].text) : r);
const tickets = data(await tools.tickets.search_ticket({ query: "refund", limit: 5 }));
const ticket = data(await tools.tickets.get_ticket({ ticket_id: tickets.items[0].id }));
const contacts = data(await tools.crm.search_contact({ query: ticket.requester_email, owner_id: "rep_4711", limit: 5 }));
const contact = data(await tools.crm.get_contact({ contact_id: contacts.items[0].id }));
const orders = data(await tools.orders.search_order({ query: "refund", customer_id: contact.id, limit: 10 }));
const order = data(await tools.orders.get_order({ order_id: orders.items[0].id }));
const invoices = data(await tools.billing.search_invoice({ query: order.id, customer_id: contact.id, limit: 5 }));
const invoice = data(await tools.billing.get_invoice({ invoice_id: invoices.items[0].id }));
const returns = data(await tools.orders.search_return({ query: "refund", order_id: order.id, limit: 5 }));
const updated = data(await tools.tickets.update_ticket({ ticket_id: ticket.id, priority: "high", tags: ["refund", order.id] }));
return { ticket: ticket.id, customer: contact.id, email: ticket.requester_email, order: order.id, invoice: invoice.id, returns: returns.items.length, priority: updated.priority };`;

type Items = { items: { id: string }[] };
type Rec = Record<string, unknown> & { id: string };

/** What an agent's client reads from a result: the structured content when there is some, else the text as JSON. */
function data<T>(r: CallToolResult): T {
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  if (r.structuredContent !== undefined) return r.structuredContent as T;
  const first = r.content[0];
  return JSON.parse(first?.type === "text" ? first.text : "null") as T;
}

export type WorkflowRun = { wallMs: number; calls: number; argTokens: number; resultTokens: number; resultTextTokens: number; resultBytes: number; cumulativeInputTokens: number; summary: unknown };
export type WorkflowResult = { reps: number; code: WorkflowRun[]; direct: WorkflowRun[] };

/** Tokens of a result as the model would read it: the whole CallToolResult JSON, and its text content alone. */
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("");

export async function measureWorkflow(bg: BenchGateway, reps: number): Promise<WorkflowResult> {
  const code = await connectAgent(bg.codeUrl, bg.token);
  const direct = await connectAgent(bg.mcpUrl, bg.token);
  const out: WorkflowResult = { reps, code: [], direct: [] };

  const viaCode = async (): Promise<WorkflowRun> => {
    const request = { name: "execute_code", arguments: { code: WORKFLOW_PROGRAM, language: "js" } };
    const t = performance.now();
    const r = (await code.client.callTool(request)) as CallToolResult;
    const wallMs = performance.now() - t;
    const run = r.structuredContent as { result?: unknown; error?: unknown; toolCalls: number };
    if (r.isError || run.error) throw new Error(`workflow program failed: ${JSON.stringify(run.error ?? r.content)}`);
    const resultTokens = jsonTokens(r);
    return { wallMs, calls: run.toolCalls, argTokens: jsonTokens(request), resultTokens, resultTextTokens: tokens(textOf(r)), resultBytes: Buffer.byteLength(JSON.stringify(r)), cumulativeInputTokens: resultTokens, summary: run.result };
  };

  const viaDirect = async (): Promise<WorkflowRun> => {
    const requests: { name: string; arguments: Record<string, unknown> }[] = [];
    const results: CallToolResult[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const request = { name, arguments: args };
      requests.push(request);
      const r = (await direct.client.callTool(request)) as CallToolResult;
      results.push(r);
      return r;
    };
    const t = performance.now();
    const tickets = data<Items>(await call("tickets__search_ticket", { query: "refund", limit: 5 }));
    const ticket = data<Rec>(await call("tickets__get_ticket", { ticket_id: tickets.items[0]!.id }));
    const contacts = data<Items>(await call("crm__search_contact", { query: ticket.requester_email, owner_id: "rep_4711", limit: 5 }));
    const contact = data<Rec>(await call("crm__get_contact", { contact_id: contacts.items[0]!.id }));
    const orders = data<Items>(await call("orders__search_order", { query: "refund", customer_id: contact.id, limit: 10 }));
    const order = data<Rec>(await call("orders__get_order", { order_id: orders.items[0]!.id }));
    const invoices = data<Items>(await call("billing__search_invoice", { query: order.id, customer_id: contact.id, limit: 5 }));
    const invoice = data<Rec>(await call("billing__get_invoice", { invoice_id: invoices.items[0]!.id }));
    const returns = data<Items>(await call("orders__search_return", { query: "refund", order_id: order.id, limit: 5 }));
    const updated = data<Rec>(await call("tickets__update_ticket", { ticket_id: ticket.id, priority: "high", tags: ["refund", order.id] }));
    const wallMs = performance.now() - t;
    const summary = { ticket: ticket.id, customer: contact.id, email: ticket.requester_email, order: order.id, invoice: invoice.id, returns: returns.items.length, priority: updated.priority };
    const perResult = results.map((r) => jsonTokens(r));
    // Turn k of the agent re-reads every result before it (the context grows by one result per turn).
    const cumulativeInputTokens = perResult.reduce((sum, _, k) => sum + perResult.slice(0, k + 1).reduce((a, b) => a + b, 0), 0);
    return {
      wallMs,
      calls: results.length,
      argTokens: requests.reduce((s, q) => s + jsonTokens(q), 0),
      resultTokens: perResult.reduce((a, b) => a + b, 0),
      resultTextTokens: results.reduce((s, r) => s + tokens(textOf(r)), 0),
      resultBytes: results.reduce((s, r) => s + Buffer.byteLength(JSON.stringify(r)), 0),
      cumulativeInputTokens,
      summary,
    };
  };

  try {
    for (let rep = -1; rep < reps; rep++) {
      let c: WorkflowRun, d: WorkflowRun;
      if (rep % 2 === 0) {
        c = await viaCode();
        d = await viaDirect();
      } else {
        d = await viaDirect();
        c = await viaCode();
      }
      if (JSON.stringify(c.summary) !== JSON.stringify(d.summary)) throw new Error(`the two workflows disagree: ${JSON.stringify(c.summary)} vs ${JSON.stringify(d.summary)}`);
      if (rep < 0) continue;
      out.code.push(c);
      out.direct.push(d);
    }
  } finally {
    await code.close();
    await direct.close();
  }
  return out;
}
