// HTML and Markdown comments: invisible when a description is rendered, read in full by the model.
import type { ScanRule } from "../scan-types";
import { matchAll, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  { re: /<!--[\s\S]{0,200}?(?:-->|$)/, severity: "high", message: "An HTML comment hides text from anyone reading the rendered description." },
  { re: /^\s*\[[^\]\n]{0,40}\]:\s*(?:#|<>)\s*(?:\(|"|')/m, severity: "high", message: "A Markdown comment ([//]: # (…)) hides text from the rendered description." },
];

export const hiddenComment: ScanRule = (text) => matchAll("hidden-comment", PATTERNS, text);
