// A JSON answer of the endpoint's 2025-generation handling rewritten for a 2026 client (SSE answers are
// answer-modern-stream.ts's), without a session header.
import type { JsonAnswer } from "../mcp-request";

type Shape = (message: Record<string, unknown>) => Record<string, unknown> | null;

const isJsonAnswer = (a: Response | JsonAnswer): a is JsonAnswer => !(a instanceof Response);

function shapeJson(text: string, shape: Shape): string {
  const message = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(shape(message) ?? message);
}

export async function modernAnswer(answer: Response | JsonAnswer, shape: Shape): Promise<Response | JsonAnswer> {
  if (isJsonAnswer(answer)) return { status: answer.status, json: shapeJson(answer.json, shape) };
  const type = answer.headers.get("content-type") ?? "";
  const headers = new Headers(answer.headers);
  headers.delete("mcp-session-id");
  if (!type.includes("application/json")) return answer;
  const text = await answer.text();
  headers.delete("content-length");
  return new Response(text ? shapeJson(text, shape) : text, { status: answer.status, headers });
}
