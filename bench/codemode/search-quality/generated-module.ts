// The main of a script that generates a shipped module: write it, or with --check exit 1 when the file is not what
// the script writes (mine-relations.ts, known-requests.ts).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function writeOrCheck(output: string, text: string, script: string, written: string): void {
  const shown = path.relative(process.cwd(), output);
  if (process.argv.includes("--check")) {
    if (readFileSync(output, "utf8") !== text) {
      console.error(`${shown} is not what ${script} writes: run it again`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(output, text);
  console.log(`${written} written to ${shown}`);
}
