// Padding that pushes text out of view: a long run of spaces on one line (the WhatsApp rug pull hid its
// payload past the visible width) or many blank lines.
import type { ScanRule } from "../scan-types";
import { matchAll, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  { re: /[ \t\u00a0\u2000-\u200a\u3000]{40,}(?=\S)/, severity: "medium", message: "A long run of spaces pushes what follows out of view." },
  { re: /(?:[ \t]*\r?\n){12,}[ \t]*(?=\S)/, severity: "medium", message: "Many blank lines push what follows out of view." },
];

export const whitespacePadding: ScanRule = (text) => matchAll("whitespace-padding", PATTERNS, text);
