// Fresh DATA_DIRs under os.tmpdir(), removed again by removeTempDirs() in afterAll.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const created: string[] = [];

export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `portcullis-${prefix}-`));
  created.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
