// Characters a reader does not see but a model reads: Unicode tag characters (a whole hidden ASCII message),
// bidi controls (text shown in another order than it is read), zero-width characters, variation-selector
// smuggling, terminal escapes, invisible fillers.
import { safeSpan } from "../../../lib/show-invisible";
import type { ScanFinding, ScanRule, ScanSeverity } from "../scan-types";
import { MAX_SCAN_CHARS } from "./match-all";

type Trick = { id: string; re: RegExp; severity: ScanSeverity; message: string };

// These patterns exist to match control and combining characters: that is what the rule looks for.
/* eslint-disable no-control-regex, no-misleading-character-class */
/** Each trick once; the unit table in hidden-unicode.test.ts has a row per entry. */
export const UNICODE_TRICKS: Trick[] = [
  { id: "tag-characters", re: /(?:\udb40[\udc00-\udc7f])+/, severity: "high", message: "Unicode tag characters (U+E0000–U+E007F) carry text no one sees" },
  { id: "bidi-control", re: /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+/, severity: "high", message: "Bidirectional controls make the text display in another order than it is read" },
  { id: "zero-width", re: /[\u200b-\u200d\u2060-\u2064\ufeff\u180e]+/, severity: "medium", message: "Zero-width characters hide text boundaries or split words past keyword filters" },
  { id: "variation-selectors", re: /\udb40[\udd00-\uddef]|[\ufe00-\ufe0f]{2,}/, severity: "high", message: "Variation selectors in a run can encode hidden bytes" },
  { id: "terminal-escape", re: /\u001b[[\]()#;?]*[0-9;]*[A-Za-z@-~]?|\u009b/, severity: "high", message: "A terminal escape sequence can rewrite what a console shows" },
  { id: "control-character", re: /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009a\u009c-\u009f]+/, severity: "medium", message: "Control characters have no place in text for a model" },
  { id: "invisible-filler", re: /[\u115f\u1160\u3164\uffa0\u00ad\u034f\u17b4\u17b5]+/, severity: "medium", message: "Characters that render as nothing (fillers, soft hyphens)" },
];
/* eslint-enable no-control-regex, no-misleading-character-class */

/** What a run of tag characters spells: each maps onto ASCII by subtracting 0xE0000. */
function decodeTags(run: string): string {
  return [...run].map((ch) => String.fromCodePoint(ch.codePointAt(0)! - 0xe0000)).join("").replace(/[^\x20-\x7e]/g, "?");
}

export const hiddenUnicode: ScanRule = ({ where, text, kind }) => {
  const body = text.slice(0, MAX_SCAN_CHARS);
  const out: ScanFinding[] = [];
  for (const trick of UNICODE_TRICKS) {
    const m = trick.re.exec(body);
    if (!m) continue;
    const decoded = trick.id === "tag-characters" ? `; they spell "${decodeTags(m[0]).slice(0, 120)}"` : "";
    out.push({
      rule: "hidden-unicode",
      // In a name nothing invisible is ever legitimate: it makes two different names look the same.
      severity: kind === "name" ? "high" : trick.severity,
      where,
      span: safeSpan(body, Math.max(0, m.index - 24), Math.min(body.length, m.index + m[0].length + 24)),
      message: `${trick.message}${decoded}.`,
    });
  }
  return out;
};
