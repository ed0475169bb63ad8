// The answer of the endpoint's 2025-generation handling rewritten message by message for a 2026 client:
// a JSON answer as one message, an SSE answer event by event (without event ids: 2026 streams are not
// resumable), and no session header.
import type { JsonAnswer } from "../mcp-request";

type Shape = (message: Record<string, unknown>) => Record<string, unknown> | null;

const isJsonAnswer = (a: Response | JsonAnswer): a is JsonAnswer => !(a instanceof Response);

function shapeJson(text: string, shape: Shape): string {
  const message = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(shape(message) ?? message);
}

/** The SSE body with each event's data shaped; comments and priming events without data are dropped. */
function shapeStream(body: ReadableStream<Uint8Array>, shape: Shape): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          const data = event
            .split(/\r?\n/)
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).replace(/^ /, ""))
            .join("\n");
          if (!data) continue;
          const shaped = shape(JSON.parse(data) as Record<string, unknown>);
          if (shaped) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(shaped)}\n\n`));
        }
      },
    }),
  );
}

export async function modernAnswer(answer: Response | JsonAnswer, shape: Shape): Promise<Response | JsonAnswer> {
  if (isJsonAnswer(answer)) return { status: answer.status, json: shapeJson(answer.json, shape) };
  const type = answer.headers.get("content-type") ?? "";
  const headers = new Headers(answer.headers);
  headers.delete("mcp-session-id");
  if (type.includes("text/event-stream") && answer.body) {
    headers.set("x-accel-buffering", "no");
    return new Response(shapeStream(answer.body, shape), { status: answer.status, headers });
  }
  if (!type.includes("application/json")) return answer;
  const text = await answer.text();
  headers.delete("content-length");
  return new Response(text ? shapeJson(text, shape) : text, { status: answer.status, headers });
}
