// What is embedded for a tool: the words a person would use for it (server, name, title, description, argument
// names), bounded, so the vector follows the definition and its hash names the definition's version.
import { createHash } from "node:crypto";
import { splitIdentifier } from "../../registry/split-identifier";
import type { SearchableTool } from "../declarations";

// Sentence-embedding models read a few hundred tokens at most; more text only costs a remote provider money.
const MAX_CHARS = 1500;
const MAX_ARGS = 40;

export function embeddingText(tool: SearchableTool): string {
  const words = (id: string) => splitIdentifier(id).join(" ");
  const properties = tool.inputSchema.properties;
  const args =
    typeof properties === "object" && properties !== null ? Object.keys(properties).slice(0, MAX_ARGS).map(words) : [];
  const parts = [
    `${words(tool.server)}: ${words(tool.tool)}`,
    tool.title ?? "",
    (tool.description ?? "").replace(/\s+/g, " ").trim(),
    args.length > 0 ? `arguments: ${args.join(", ")}` : "",
  ];
  return parts.filter(Boolean).join(". ").slice(0, MAX_CHARS);
}

/** The stored vector's key beside the provider id: same text, same vector. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
