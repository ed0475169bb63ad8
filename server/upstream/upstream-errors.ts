// Upstream faults as the pool raises them; pipeline/upstream-failure-result.ts turns them into tool errors.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export class UpstreamUnavailableError extends Error {
  override name = "UpstreamUnavailableError";
}

/** True for faults where trying again may help (connection, timeout); never for the upstream's own answers. */
export function isTransient(err: unknown): boolean {
  if (err instanceof UpstreamUnavailableError) return true;
  if (err instanceof McpError) return err.code === (ErrorCode.ConnectionClosed as number) || err.code === (ErrorCode.RequestTimeout as number);
  return false;
}
