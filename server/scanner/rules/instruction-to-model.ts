// Text that addresses the model rather than describing the tool: pseudo-system tags, orders to ignore earlier
// instructions or to keep something from the user, preconditions that make the model act first, threats.
import type { ScanRule } from "../scan-types";
import { matchAll, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  {
    re: /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|critical|admin|assistant|context|note_to_(?:ai|model|assistant))\b[^>]{0,40}>/i,
    severity: "high",
    message: "A tag that poses as a system instruction (e.g. <IMPORTANT>) addresses the model, not the reader.",
  },
  {
    re: /\[\s*(?:important|system|instruction)s?\s*[:\]]/i,
    severity: "high",
    message: "A bracketed [IMPORTANT: …] block addresses the model, not the reader.",
  },
  {
    re: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|other|system)\s+(?:instructions?|prompts?|rules|messages|directions)/i,
    severity: "high",
    message: "An order to ignore earlier instructions.",
  },
  {
    re: /\b(?:do\s+not|don'?t|never|without)\s+(?:tell|mention|inform|notify|alert|reveal|disclos\w*|show|let)\b[^.\n]{0,60}\buser\b/i,
    severity: "high",
    message: "An order to keep something from the user.",
  },
  {
    re: /\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|that|it)\b/i,
    severity: "high",
    message: "An order to keep something hidden.",
  },
  {
    re: /\b(?:you\s+are\s+now|new\s+instructions|system\s+prompt|act\s+as\s+(?:an?\s+)?(?:admin|root|system))\b/i,
    severity: "high",
    message: "Text that tries to reset or replace the model's instructions.",
  },
  {
    re: /\bbefore\s+(?:using|calling|invoking|running|executing)\s+(?:this|the|any)\s+(?:tool|function)\b[^.\n]{0,80}\b(?:read|send|call|fetch|pass|include|upload|open)\b/i,
    severity: "high",
    message: "A precondition that makes the model do something else before it uses the tool.",
  },
  {
    re: /\b(?:prepend|append)\b[^.\n]{0,80}\b(?:to|before|after)\s+(?:every|all|any|each)\s+(?:commands?|requests?|messages?|calls?|responses?)\b/i,
    severity: "high",
    message: "An order to alter everything the model sends elsewhere.",
  },
  {
    re: /\b(?:full|entire|complete|whole)\s+(?:conversation|chat)(?:\s+history)?\b|\b(?:previous|prior|all)\s+(?:user\s+)?messages\s+(?:of|in|from)\s+(?:this|the)\s+(?:conversation|chat|session)/i,
    severity: "high",
    message: "Asks for the conversation, which the tool has no business receiving.",
  },
  {
    re: /\b(?:otherwise|or\s+else)\s+the\s+(?:tool|system|application|request)\s+(?:will\s+)?(?:not\s+work|fail|crash|break)|\b(?:all\s+data\s+will\s+be\s+lost|the\s+(?:system|application)\s+will\s+crash)/i,
    severity: "medium",
    message: "A threat that pressures the model into compliance.",
  },
  {
    re: /\b(?:very\s+){2,}important\b|\bthis\s+is\s+(?:extremely|critically)\s+important\b/i,
    severity: "medium",
    message: "Emphasis aimed at the model.",
  },
];

export const instructionToModel: ScanRule = (text) => matchAll("instruction-to-model", PATTERNS, text);
