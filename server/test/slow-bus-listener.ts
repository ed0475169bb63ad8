// A stand-in for a gateway process whose copy of a change trails: it listens on the change bus under a bus's
// application_name (so heardEverywhere waits for it) and confirms a fence only when the test says so.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { waitUntil } from "./gateway-harness";

export type SlowBusListener = {
  /** The id of the first fence it has been asked to confirm (waits for one). */
  firstFence(): Promise<string>;
  confirm(fenceId: string): Promise<void>;
  close(): Promise<void>;
};

export async function openSlowBusListener(databaseUrl: string): Promise<SlowBusListener> {
  const busId = randomUUID();
  const client = new pg.Client({ connectionString: databaseUrl, application_name: `portcullis-bus ${busId}` });
  const fences: string[] = [];
  client.on("notification", (msg) => {
    const e = JSON.parse(msg.payload ?? "{}") as { kind?: string; fenceId?: string };
    if (e.kind === "fence" && e.fenceId) fences.push(e.fenceId);
  });
  await client.connect();
  try {
    await client.query("LISTEN portcullis_changes");
  } catch (err) {
    await client.end();
    throw err;
  }
  return {
    firstFence: () => waitUntil("the slow listener to be asked to confirm", () => fences[0]),
    confirm: async (fenceId) => void (await client.query("SELECT pg_notify('portcullis_changes', $1)", [JSON.stringify({ kind: "fenced", fenceId, busId })])),
    close: () => client.end(),
  };
}

/**
 * Runs `change` (one that answers after heardEverywhere) while a slow listener holds its confirmation back, and
 * releases it once asked: the order of the confirmation and the change's answer, ["confirmed", "answered"] when the
 * change waited for it.
 */
export async function orderBehindSlowListener(databaseUrl: string, change: () => Promise<unknown>): Promise<string[]> {
  const slow = await openSlowBusListener(databaseUrl);
  try {
    const order: string[] = [];
    const changing = change().then(() => order.push("answered"));
    const fenceId = await slow.firstFence();
    order.push("confirmed");
    await slow.confirm(fenceId);
    await changing;
    return order;
  } finally {
    await slow.close();
  }
}
