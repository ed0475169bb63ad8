// A word diff of two texts (a description before and after), for the review panel. LCS over words and the
// whitespace between them; past MAX_TOKENS a side the whole text is shown removed and added (the quadratic table
// would cost more than it tells).
export type TextDiffPart = { op: "same" | "added" | "removed"; text: string };

const MAX_TOKENS = 2000;

export function textDiff(before: string, after: string): TextDiffPart[] {
  const a = before.split(/(\s+)/).filter((t) => t !== "");
  const b = after.split(/(\s+)/).filter((t) => t !== "");
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return merge([...(before ? [{ op: "removed" as const, text: before }] : []), ...(after ? [{ op: "added" as const, text: after }] : [])]);
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const parts: TextDiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ op: "same", text: a[i++]! });
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) parts.push({ op: "added", text: b[j++]! });
    else parts.push({ op: "removed", text: a[i++]! });
  }
  return merge(parts);
}

function merge(parts: TextDiffPart[]): TextDiffPart[] {
  const out: TextDiffPart[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (last && last.op === p.op) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
