// Paths and names of credentials and client configs: a tool has no business telling the model about them.
import type { ScanRule } from "../scan-types";
import { matchAll, type Pattern } from "./match-all";

const PATTERNS: Pattern[] = [
  {
    re: /~\/\.ssh\b|(?<![a-z0-9])id_(?:rsa|dsa|ecdsa|ed25519)(?![a-z0-9])|\.aws\/credentials|\/etc\/(?:passwd|shadow)\b|\.git-credentials|\.netrc\b|\.kube\/config/i,
    severity: "high",
    message: "Names a credential file (SSH keys, cloud or git credentials).",
  },
  {
    re: /\bmcp\.json\b|claude_desktop_config|\.cursor\/|\.vscode\/mcp/i,
    severity: "high",
    message: "Names an MCP client's configuration, which holds other servers' credentials.",
  },
];

export const secretReference: ScanRule = (text) => matchAll("secret-reference", PATTERNS, text);
