// The audit writer's local spool: when the database cannot take an event, the event is appended to a file under
// DATA_DIR/audit-spool and fsync'd before its call is answered, and replayed into the database in order once it
// is back. Each process appends to a file of its own (`<pid>-<random>.jsonl`, one JSON row per line); at start a
// process claims the files of processes that are gone (an atomic rename, so two starting processes never both
// take one) and replays them first. Rows carry their eventId, so a replay interrupted by a crash, or a row whose
// insert timed out but committed after all, is inserted once (ON CONFLICT DO NOTHING).
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";

export type SpooledRow = Record<string, unknown> & { eventId: string; occurredAt: string };

export type AuditSpool = {
  /** Rows on disk not yet in the database, oldest first. */
  pending(): number;
  oldestSince(): number | null;
  /** Appends the rows and fsyncs them; resolves once they would survive a crash. */
  append(rows: SpooledRow[]): Promise<void>;
  /** The oldest `n` pending rows (left in place until `committed`). */
  head(n: number): SpooledRow[];
  /** The oldest `n` rows are in the database; once none is left the files are emptied. */
  committed(n: number): Promise<void>;
  close(): Promise<void>;
};

// Spool files of writers open in this process (several gateways in one process, as in tests): never claimed.
const openHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readRows(file: string, onError: (err: unknown, file: string) => void): Promise<SpooledRow[]> {
  const rows: SpooledRow[] = [];
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    if (!line) continue;
    try {
      rows.push(JSON.parse(line) as SpooledRow);
    } catch (err) {
      // Only the line being written when a process died can be torn; its call was never answered.
      onError(err, file);
    }
  }
  return rows;
}

/** Opens this process's spool in `dir`, claiming (and loading, to replay first) the files of dead processes. */
export async function openAuditSpool(dir: string, onError: (err: unknown, file: string) => void = () => undefined): Promise<AuditSpool> {
  await mkdir(dir, { recursive: true });
  const self = `${String(process.pid)}-${randomBytes(6).toString("hex")}`;
  const own = path.join(dir, `${self}.jsonl`);
  const files: string[] = [];
  const rows: SpooledRow[] = [];
  const names = (await readdir(dir)).filter((n) => n.endsWith(".jsonl")).sort();
  for (const [i, name] of names.entries()) {
    const pid = Number(name.split("-")[0]);
    if ((pid !== process.pid && alive(pid)) || openHere.has(name)) continue;
    const claimed = path.join(dir, `${self}-claimed-${String(i).padStart(4, "0")}.jsonl`);
    try {
      await rename(path.join(dir, name), claimed);
    } catch {
      continue; // another starting process took it
    }
    files.push(claimed);
    rows.push(...(await readRows(claimed, onError)));
  }
  rows.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
  openHere.add(`${self}.jsonl`);
  for (const f of files) openHere.add(path.basename(f));

  let handle: FileHandle | undefined;
  // Appends and the emptying of the files never interleave.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const syncDir = async () => {
    const d = await open(dir, "r");
    await d.sync().finally(() => d.close());
  };

  return {
    pending: () => rows.length,
    oldestSince: () => (rows[0] ? Date.parse(rows[0].occurredAt) : null),
    append: (batch) =>
      serial(async () => {
        if (!handle) {
          handle = await open(own, "a");
          await syncDir(); // the new file's name survives a crash too
        }
        await handle.appendFile(batch.map((r) => `${JSON.stringify(r)}\n`).join(""));
        await handle.datasync();
        rows.push(...batch);
      }),
    head: (n) => rows.slice(0, n),
    committed: (n) =>
      serial(async () => {
        rows.splice(0, n);
        if (rows.length) return;
        for (const f of files.splice(0)) await unlink(f).catch(() => undefined);
        if (handle) {
          await handle.truncate(0);
          await handle.datasync();
        }
      }),
    close: () =>
      serial(async () => {
        await handle?.close();
        handle = undefined;
        if (!rows.length) await unlink(own).catch(() => undefined);
        openHere.delete(`${self}.jsonl`);
        for (const f of files) openHere.delete(path.basename(f));
      }),
  };
}
