// Example requests that ship with Portcullis for the tools of well-known MCP server packages (the official
// reference servers, GitHub, GitLab, Slack, Notion, Firecrawl, Playwright, …): the requests D174's writers wrote for
// them from the tools alone, applied to a tool whose name and description are exactly the ones they were written
// for (its definition fingerprint). A tool of another version that words its description otherwise gets none; a
// tool whose admin wrote requests gets the admin's instead (lib/tool-examples.ts, D175). Offline, like the thesaurus.
import { createHash } from "node:crypto";
import { KNOWN_TOOL_REQUESTS } from "./known-requests-data";

/** Which definition requests were written for: the tool's upstream name and description, hashed. */
export function definitionFingerprint(tool: { tool: string; description?: string | null }): string {
  return createHash("sha256").update(`${tool.tool}\n${tool.description ?? ""}`).digest("hex").slice(0, 16);
}

let enabled = true;

/** The bench's switch (--no-known-requests): the ranker without the shipped requests. */
export function setKnownRequests(on: boolean): void {
  enabled = on;
}

/** The shipped requests for this exact definition, or none. */
export function knownRequestsFor(tool: { tool: string; description?: string | null }): readonly string[] {
  return enabled ? (KNOWN_TOOL_REQUESTS[definitionFingerprint(tool)] ?? []) : [];
}
