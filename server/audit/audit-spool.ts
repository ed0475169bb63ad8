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
  /** The oldest pending rows, at most `n` (left in place until `committed`). */
  head(n: number): Promise<SpooledRow[]>;
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

type Segment = { file: string; handle?: FileHandle; offset: number; rows: number };

/** Valid rows of a file (a torn line is reported and not counted) and the first one's time. */
async function countRows(file: string, onError: (err: unknown, file: string) => void): Promise<{ rows: number; first: number | null }> {
  let rows = 0;
  let first: number | null = null;
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as SpooledRow;
      first ??= Date.parse(r.occurredAt);
      rows++;
    } catch (err) {
      // Only the line being written when a process died can be torn; its call was never answered.
      onError(err, file);
    }
  }
  return { rows, first };
}

const READ_CHUNK = 1 << 20;

/**
 * Opens this process's spool in `dir`, claiming the files of dead processes (replayed first). Rows stay on disk
 * only (a long outage must not fill memory): the replay reads them back a batch at a time.
 */
export async function openAuditSpool(dir: string, onError: (err: unknown, file: string) => void = () => undefined): Promise<AuditSpool> {
  // Audit rows (redacted, but still who did what): readable by the gateway's user alone.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const self = `${String(process.pid)}-${randomBytes(6).toString("hex")}`;
  const own: Segment = { file: path.join(dir, `${self}.jsonl`), offset: 0, rows: 0 };
  const segments: Segment[] = [];
  let oldest: number | null = null;
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
    const { rows, first } = await countRows(claimed, onError);
    if (!rows) {
      await unlink(claimed).catch(() => undefined);
      continue;
    }
    segments.push({ file: claimed, offset: 0, rows });
    oldest ??= first;
  }
  openHere.add(path.basename(own.file));
  for (const s of segments) openHere.add(path.basename(s.file));

  // Appends, reads and the emptying of files never interleave.
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
  const pending = () => segments.reduce((n, s) => n + s.rows, 0);
  /** Byte lengths of the rows the last head() returned, so committed() knows how far to move. */
  let headBytes: number[] = [];

  async function readHead(seg: Segment, n: number): Promise<SpooledRow[]> {
    const handle = seg.handle ?? (await open(seg.file, "r"));
    try {
      const rows: SpooledRow[] = [];
      headBytes = [];
      let pos = seg.offset;
      let carry = Buffer.alloc(0);
      let skipped = 0;
      while (rows.length < n) {
        const chunk = Buffer.alloc(READ_CHUNK);
        const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK, pos);
        if (!bytesRead) break;
        pos += bytesRead;
        let buf = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
        let nl: number;
        while (rows.length < n && (nl = buf.indexOf(10)) >= 0) {
          const line = buf.subarray(0, nl).toString("utf8");
          buf = buf.subarray(nl + 1);
          try {
            rows.push(JSON.parse(line) as SpooledRow);
            headBytes.push(skipped + nl + 1);
            skipped = 0;
          } catch {
            skipped += nl + 1; // a torn line (reported when the file was claimed): passed over with the next row
          }
        }
        carry = buf;
      }
      return rows;
    } finally {
      if (!seg.handle) await handle.close();
    }
  }

  return {
    pending,
    oldestSince: () => (pending() ? oldest : null),
    append: (batch) =>
      serial(async () => {
        if (!own.handle) {
          own.handle = await open(own.file, "a+", 0o600);
          await syncDir(); // the new file's name survives a crash too
          segments.push(own);
        }
        await own.handle.appendFile(batch.map((r) => `${JSON.stringify(r)}\n`).join(""));
        await own.handle.datasync();
        if (!pending() && batch[0]) oldest = Date.parse(batch[0].occurredAt);
        own.rows += batch.length;
      }),
    head: (n) =>
      serial(async () => {
        const seg = segments.find((s) => s.rows > 0);
        if (!seg) return [];
        const rows = await readHead(seg, Math.min(n, seg.rows));
        if (rows[0]) oldest = Date.parse(rows[0].occurredAt);
        return rows;
      }),
    committed: (n) =>
      serial(async () => {
        const seg = segments.find((s) => s.rows > 0);
        if (!seg) return;
        seg.offset += headBytes.slice(0, n).reduce((a, b) => a + b, 0);
        seg.rows -= n;
        if (seg.rows > 0) return;
        if (seg !== own) {
          segments.splice(segments.indexOf(seg), 1);
          await unlink(seg.file).catch(() => undefined);
        } else if (!pending()) {
          // Everything is in the database: the own file starts again empty.
          await own.handle!.truncate(0);
          await own.handle!.datasync();
          own.offset = 0;
        }
      }),
    close: () =>
      serial(async () => {
        await own.handle?.close();
        own.handle = undefined;
        if (!own.rows) await unlink(own.file).catch(() => undefined);
        openHere.delete(path.basename(own.file));
        for (const s of segments) openHere.delete(path.basename(s.file));
      }),
  };
}
