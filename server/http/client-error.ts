// A request Node's HTTP parser refuses (headers past its size limit, a malformed request line) never reaches a
// handler; Node would answer it with an empty 400 or 431. This answers with our documented error instead.
import type { Duplex } from "node:stream";
import type { ErrorCode } from "../errors";
import { ERROR_STATUS } from "../errors";

const REASONS: Record<number, string> = { 400: "Bad Request", 431: "Request Header Fields Too Large" };

/** The raw HTTP answer to a request the parser refused with `err` (its `code` is llhttp's, e.g. HPE_HEADER_OVERFLOW). */
export function clientErrorResponse(err: { code?: unknown }): string {
  const [code, message]: [ErrorCode, string] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? ["headers_too_large", "The request line and headers are too large (a URL or header of more than 16 KB)."]
      : ["bad_request", "The HTTP request could not be parsed."];
  const status = ERROR_STATUS[code];
  const body = JSON.stringify({ error: { code, message } });
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** For `server.on("clientError", …)`: answers when the client is still there to read it, then closes the socket. */
export function answerClientError(err: { code?: unknown }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) socket.destroy();
  else socket.end(clientErrorResponse(err));
}
