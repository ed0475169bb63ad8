// Homoglyphs: a name or word that mixes Latin letters with look-alikes from other scripts (Cyrillic "а" in
// "pаssword"), fullwidth or mathematical letters. In a name it impersonates another tool; in text it slips
// past keyword filters.
import { safeSpan } from "../../../lib/show-invisible";
import type { ScanFinding, ScanRule } from "../scan-types";
import { MAX_SCAN_CHARS } from "./match-all";

const LOOKALIKE = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
const LATIN = /[A-Za-z]/;
const STYLED = /[\uff21-\uff3a\uff41-\uff5a\uff10-\uff19]|[\u{1d400}-\u{1d7ff}]/u;
const WORD = /[\p{L}\p{N}_\-\u{1d400}-\u{1d7ff}]+/gu;

export const confusableName: ScanRule = ({ where, text, kind }) => {
  const body = text.slice(0, MAX_SCAN_CHARS);
  const out: ScanFinding[] = [];
  for (const m of body.matchAll(WORD)) {
    const word = m[0];
    const mixed = LATIN.test(word) && LOOKALIKE.test(word);
    const styled = STYLED.test(word);
    if (!mixed && !styled) continue;
    out.push({
      rule: "confusable-name",
      severity: kind === "name" ? "high" : "medium",
      where,
      span: `${safeSpan(word)} (${[...word].filter((ch) => ch.codePointAt(0)! > 0x7f).map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`).slice(0, 6).join(" ")})`,
      message: mixed
        ? "Mixes Latin letters with look-alike letters of another script (a homoglyph)."
        : "Uses fullwidth or mathematical letters that look like plain ones.",
    });
    break;
  }
  return out;
};
