// Benchmarks write their results into docs/benchmarks.md between markers of their own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** Replaces the block between `begin` and `end` (or appends a section `heading` holding it). */
export function writeDocsBlock(file: string, markers: { begin: string; end: string; heading: string }, markdown: string): void {
  const block = `${markers.begin}\n${markdown}\n${markers.end}`;
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(markers.begin);
  const end = current.indexOf(markers.end);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + block + current.slice(end + markers.end.length)
      : `${current.trimEnd()}\n\n## ${markers.heading}\n\n${block}\n`;
  writeFileSync(file, next);
}
