// `command -v` for the gateway: the first executable file of that name on PATH.
import { accessSync, constants } from "node:fs";
import path from "node:path";

export function findOnPath(name: string, pathVar = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(path.delimiter).filter(Boolean)) {
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}
