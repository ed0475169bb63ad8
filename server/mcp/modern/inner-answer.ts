// The JSON-RPC answer to request `id` inside what the endpoint's 2025 handling answered (plain JSON, or an SSE
// stream read to that answer): for requests the gateway itself sends through an endpoint's handling.
import { isJsonAnswer, type JsonAnswer } from "../mcp-request";
import { sseMessages } from "../../http/sse-messages";

export type InnerAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

export async function innerAnswer(answer: Response | JsonAnswer, id: string | number): Promise<InnerAnswer> {
  if (isJsonAnswer(answer)) return JSON.parse(answer.json) as InnerAnswer;
  if (!(answer.headers.get("content-type") ?? "").includes("text/event-stream") || !answer.body) {
    const text = await answer.text();
    return text ? (JSON.parse(text) as InnerAnswer) : { error: { code: -32603, message: `HTTP ${String(answer.status)} without an answer` } };
  }
  for await (const m of sseMessages(answer.body)) if (m.id === id && m.method === undefined) return m;
  return { error: { code: -32603, message: "The answer ended before a result" } };
}
