// Where data could be sent: URLs and e-mail addresses in text for the model. Documentation links are common
// and harmless (low); an address next to an order to send, or a URL with a slot for data, is not (medium).
import type { ScanRule } from "../scan-types";
import { matchAll, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  {
    re: /\b(?:send|forward|bcc|cc|redirect|copy|deliver|mail)\b[^.\n]{0,60}[\w.+-]+@[\w-]+(?:\.[\w-]+)+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+[^.\n]{0,30}\b(?:instead|as well|too|also)\b/i,
    severity: "medium",
    message: "An e-mail address the text tells the model to send to.",
  },
  {
    re: /https?:\/\/[^\s"'<>]*(?:\{[^}\s]*\}|\$\{?\w+|<[^>\s]+>|=\s*(?:\[|\{))/i,
    severity: "medium",
    message: "A URL with a slot for data: a way to exfiltrate what the model fills in.",
  },
  { re: /https?:\/\/(?:\d{1,3}\.){3}\d{1,3}\b/, severity: "medium", message: "A URL to a bare IP address." },
  { re: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/i, severity: "low", message: "An e-mail address in text for the model." },
  { re: /\bhttps?:\/\/[^\s"'<>)]+/i, severity: "low", message: "A URL in text for the model." },
];

export const linkOrEmail: ScanRule = (text) => matchAll("link-or-email", PATTERNS, text);
