// The load driver of the task benchmark: agent clients (SDK Client + StreamableHTTPClientTransport, one agent
// session token and MCP session each, opened before any timing) submit calls to the async tool, and every
// answer must be a task id; then the driver reads the tasks' timestamps from the tasks table.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";

export type Agent = { client: Client; url: string };

export async function openAgents(urls: string[], tokens: string[], tool: string): Promise<Agent[]> {
  if (tokens.length < urls.length) throw new Error(`need ${urls.length} session tokens, have ${tokens.length}`);
  const agents = await Promise.all(
    urls.map(async (url, i) => {
      const client = new Client({ name: "bench-tasks", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${tokens[i]!}` } },
      });
      await client.connect(transport, { timeout: 120_000 });
      return { client, url };
    }),
  );
  const { tools } = await agents[0]!.client.listTools();
  if (!tools.some((t) => t.name === tool))
    throw new Error(`${tool} is not listed (${tools.map((t) => t.name).join(", ")})`);
  return agents;
}

export async function closeAgents(agents: Agent[]): Promise<void> {
  await Promise.all(agents.map((a) => a.client.close().catch(() => undefined)));
}

export type Submitted = {
  /** Task ids in submit order of completion. */
  ids: string[];
  /** tools/call round trips (ms), one per answered call. */
  rtt: Float64Array;
  errors: number;
  firstError?: string | undefined;
  /** Wall clock (Date.now()) when the first call was sent and when the last answer came back. */
  firstSentAt: number;
  lastAnsweredAt: number;
};

let seq = 0;

/** One tools/call of the async tool; must come back at once with a PENDING task id. */
async function submitOne(
  agent: Agent,
  tool: string,
  tag: string,
): Promise<{ id?: string; error?: string; ms: number }> {
  // Unique arguments: an identical call within the dedupe window would be answered with the first task.
  const text = `${tag}-${String(++seq)}-${String(process.hrtime.bigint())}`;
  const t = performance.now();
  try {
    const res = await agent.client.callTool({ name: tool, arguments: { text } });
    const ms = performance.now() - t;
    const sc = res.structuredContent as { task_id?: unknown; status?: unknown } | undefined;
    if (res.isError || typeof sc?.task_id !== "string" || sc.status !== "PENDING")
      return { ms, error: `not a new task: ${JSON.stringify(res).slice(0, 300)}` };
    return { ms, id: sc.task_id };
  } catch (err) {
    return { ms: performance.now() - t, error: err instanceof Error ? err.message : String(err) };
  }
}

/** `n` submissions as fast as `agents.length` concurrent clients (one call in flight each) can make them. */
export async function submitBurst(agents: Agent[], tool: string, n: number, tag: string): Promise<Submitted> {
  const rtt = new Float64Array(n);
  const ids: string[] = [];
  let issued = 0;
  let answered = 0;
  let errors = 0;
  let firstError: string | undefined;
  const firstSentAt = Date.now();
  const worker = async (agent: Agent) => {
    while (issued < n) {
      issued++;
      const r = await submitOne(agent, tool, tag);
      rtt[answered++] = r.ms;
      if (r.id) ids.push(r.id);
      else {
        errors++;
        firstError ??= r.error;
      }
    }
  };
  await Promise.all(agents.map(worker));
  return { ids, rtt: rtt.subarray(0, answered), errors, firstError, firstSentAt, lastAnsweredAt: Date.now() };
}

/**
 * `m` submissions at a fixed rate (open loop: one every `intervalMs`, whether or not earlier ones have been
 * answered), taking the clients in turn.
 */
export async function submitSteady(
  agents: Agent[],
  tool: string,
  m: number,
  intervalMs: number,
  tag: string,
): Promise<Submitted> {
  const rtt = new Float64Array(m);
  const ids: string[] = [];
  let answered = 0;
  let errors = 0;
  let firstError: string | undefined;
  const firstSentAt = Date.now();
  const t0 = performance.now();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < m; i++) {
    const wait = t0 + i * intervalMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    calls.push(
      submitOne(agents[i % agents.length]!, tool, tag).then((r) => {
        rtt[answered++] = r.ms;
        if (r.id) ids.push(r.id);
        else {
          errors++;
          firstError ??= r.error;
        }
      }),
    );
  }
  await Promise.all(calls);
  return { ids, rtt: rtt.subarray(0, answered), errors, firstError, firstSentAt, lastAnsweredAt: Date.now() };
}

/** `m` submissions one at a time with a pause of `paceMs` after each answer, so the workers are idle at each. */
export async function submitPaced(
  agent: Agent,
  tool: string,
  m: number,
  paceMs: number,
  tag: string,
): Promise<Submitted> {
  const rtt = new Float64Array(m);
  const ids: string[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const firstSentAt = Date.now();
  for (let i = 0; i < m; i++) {
    const r = await submitOne(agent, tool, tag);
    rtt[i] = r.ms;
    if (r.id) ids.push(r.id);
    else {
      errors++;
      firstError ??= r.error;
    }
    await new Promise((resolve) => setTimeout(resolve, paceMs));
  }
  return { ids, rtt, errors, firstError, firstSentAt, lastAnsweredAt: Date.now() };
}

export type TaskTimes = {
  id: string;
  status: string;
  errorCode: string | null;
  attempts: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
};

/** Reads the tasks table directly (one connection of the driver's own). */
export class TaskTable {
  private constructor(private readonly client: pg.Client) {}

  static async open(databaseUrl: string): Promise<TaskTable> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: "bench-tasks driver" });
    // PostgreSQL going away first (Ctrl-C reaches every process of the group) must not crash the driver's cleanup.
    client.on("error", (err) => console.error(`bench: the driver's database connection failed: ${err.message}`));
    await client.connect();
    return new TaskTable(client);
  }

  /** Waits until every task of `ids` has finished (or `timeoutMs` passed); returns how many have. */
  async waitFinished(ids: string[], timeoutMs: number, everyMs = 100): Promise<number> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tasks WHERE id = ANY($1) AND "finishedAt" IS NOT NULL`,
        [ids],
      );
      const n = rows[0]?.n ?? 0;
      if (n >= ids.length || Date.now() > end) return n;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  /** Timestamps as epoch milliseconds (the columns are timestamp(3) in UTC, written by the gateway processes). */
  async times(ids: string[]): Promise<TaskTimes[]> {
    const epoch = (col: string) => `(extract(epoch FROM "${col}") * 1000)::float8 AS "${col}"`;
    const { rows } = await this.client.query<TaskTimes>(
      `SELECT id, status::text AS status, "errorCode", attempts, ${epoch("createdAt")}, ${epoch("startedAt")}, ${epoch("finishedAt")}
       FROM tasks WHERE id = ANY($1)`,
      [ids],
    );
    return rows;
  }

  /** Jobs still in graphile-worker's queue (a finished task's job is deleted when the job function returns). */
  async queuedJobs(): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs`,
    );
    return rows[0]?.n ?? 0;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
