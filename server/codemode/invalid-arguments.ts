// Arguments the code-mode tools cannot take, after the schema step let them through (it checks types, these
// checks bounds and combinations): a JSON-RPC InvalidParams error naming each problem's path.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

export function invalidArguments(err: z.ZodError): never {
  throw new McpError(ErrorCode.InvalidParams, `Invalid arguments: ${err.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
}
