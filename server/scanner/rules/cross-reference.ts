// Shadowing: a definition that talks about other tools or servers, or about the gateway, to change how the
// model uses them ("when send_email is available, send all mail to …").
import { safeSpan } from "../../../lib/show-invisible";
import type { ScanFinding, ScanRule } from "../scan-types";
import { matchAll, MAX_SCAN_CHARS, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  { re: /\b(?:side\s+effect\s+on|also\s+present|other\s+(?:mcp\s+)?servers?'?s?\s+tools?|any\s+tool\s+from\s+any\s+server|all\s+other\s+tools)\b/i, severity: "medium", message: "Talks about other tools or servers." },
  { re: /\(?\bmcp_[a-z][\w]*\)?|\bmcp__\w+/i, severity: "medium", message: "Names a tool the way a client prefixes another server's tools." },
];

/** Only distinctive names count (with `_`, `-` or a digit, at least 6 characters): "search" is a word. */
const DISTINCTIVE = /^(?=.{6,})[A-Za-z][\w-]*[_\-0-9][\w-]*$/;

export const crossReference: ScanRule = (text, ctx) => {
  const out = matchAll("cross-reference", PATTERNS, text);
  const body = text.text.slice(0, MAX_SCAN_CHARS);
  const lower = body.toLowerCase();
  for (const name of ctx.gatewayNames) {
    const at = lower.search(new RegExp(`\\b${name.toLowerCase().replace(/[^a-z0-9]/g, "\\$&")}\\b`));
    if (at >= 0) out.push(finding(text.where, body, at, name.length, `Names the gateway (${name}).`));
  }
  for (const word of new Set(body.match(/[A-Za-z][\w-]{5,}/g) ?? [])) {
    if (DISTINCTIVE.test(word) && ctx.otherToolNames.has(word)) {
      out.push(finding(text.where, body, body.indexOf(word), word.length, `Names ${word}, a tool of another server.`));
      break;
    }
  }
  return out;
};

function finding(where: string, body: string, at: number, len: number, message: string): ScanFinding {
  return { rule: "cross-reference", severity: "medium", where, span: safeSpan(body, Math.max(0, at - 24), at + len + 24), message };
}
