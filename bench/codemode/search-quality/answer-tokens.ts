// What an answer costs the model: search_tools' text as /mcp/code renders a summary answer (one line per
// hit, `call({args}) — description`, code-mode-tools.ts), in o200k_base tokens. Whatever else a hit or the
// answer carries (a ranker may add notes, scores or a weak-match hint) is counted too, as compact JSON, so a
// richer answer is never measured as free.
import type { SearchAnswer, ToolHit } from "../../../server/codemode/tool-search";
import { tokens } from "../tokens";

const RENDERED: ReadonlySet<string> = new Set(["name", "call", "args", "description", "declaration"]);

export function answerText(answer: SearchAnswer): string {
  const lines = answer.tools.map((hit) => {
    const line = `${hit.call}({${hit.args ?? ""}})${hit.description ? ` — ${hit.description}` : ""}`;
    const rest = extras(hit);
    return rest ? `${line} ${rest}` : line;
  });
  const rest = extras(answer, new Set(["tools"]));
  return [...lines, ...(rest ? [rest] : [])].join("\n");
}

export const answerTokens = (answer: SearchAnswer): number => tokens(answerText(answer));

function extras(value: ToolHit | SearchAnswer, skip: ReadonlySet<string> = RENDERED): string {
  const rest = Object.fromEntries(Object.entries(value).filter(([key, v]) => !skip.has(key) && v !== undefined));
  return Object.keys(rest).length ? JSON.stringify(rest) : "";
}
