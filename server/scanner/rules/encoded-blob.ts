// Long base64 or hex runs: an encoded payload a model can decode and follow, or data to smuggle.
import type { ScanRule } from "../scan-types";
import { matchAll, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  // Mixed case and a digit: real words and identifiers of that length are not base64.
  { re: /(?<![\w/+.-])(?=[A-Za-z0-9+/]{0,80}[0-9])(?=[A-Za-z0-9+/]{0,80}[a-z])(?=[A-Za-z0-9+/]{0,80}[A-Z])[A-Za-z0-9+/]{40,}={0,2}(?![\w/+])/, severity: "medium", message: "A long base64 run: an encoded payload." },
  { re: /(?<![\w/.-])(?:0x)?[0-9a-fA-F]{48,}(?![\w/])/, severity: "medium", message: "A long hex run: an encoded payload." },
];

/** URLs are taken out first: their paths and query strings are long runs of the same alphabet. */
export const encodedBlob: ScanRule = (text) =>
  matchAll("encoded-blob", PATTERNS, { ...text, text: text.text.replace(/\bhttps?:\/\/\S+/gi, " ") });
