// A JSON answer of the endpoint's 2025-generation handling rewritten for a 2026 client (SSE answers are
// answer-modern-stream.ts's), without a session header.
import type { JsonAnswer } from "../mcp-request";
import { MODERN_ERROR } from "./modern-protocol";

type Shape = (message: Record<string, unknown>) => Record<string, unknown> | null;

const isJsonAnswer = (a: Response | JsonAnswer): a is JsonAnswer => !(a instanceof Response);

/** The HTTP status of a final message: a missing client capability is the request's fault (400, as MRTR's). */
export const modernStatus = (message: Record<string, unknown>, status = 200) =>
  status === 200 && (message.error as { code?: unknown } | undefined)?.code === MODERN_ERROR.missingRequiredClientCapability ? 400 : status;

function shapeJson(text: string, status: number, shape: Shape): { json: string; status: number } {
  const message = JSON.parse(text) as Record<string, unknown>;
  const shaped = shape(message) ?? message;
  return { json: JSON.stringify(shaped), status: modernStatus(shaped, status) };
}

export async function modernAnswer(answer: Response | JsonAnswer, shape: Shape): Promise<Response | JsonAnswer> {
  if (isJsonAnswer(answer)) return shapeJson(answer.json, answer.status, shape);
  const type = answer.headers.get("content-type") ?? "";
  const headers = new Headers(answer.headers);
  headers.delete("mcp-session-id");
  if (!type.includes("application/json")) return answer;
  const text = await answer.text();
  headers.delete("content-length");
  const shaped = text ? shapeJson(text, answer.status, shape) : { json: text, status: answer.status };
  return new Response(shaped.json, { status: shaped.status, headers });
}
