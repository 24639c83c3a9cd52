import { type Server, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { RENDERED_MESSAGES } from "./errors.js";

/** The answer to a request Node refused before Koa saw it, by Node's error code; 400 for the rest. */
const REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: "The request headers are too large." },
  // headersTimeout or requestTimeout ran out (api/server-settings.ts): a slow or stalled client.
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive." },
};
const MALFORMED = { status: 400, message: RENDERED_MESSAGES.malformed };

/**
 * Requests Node refuses before Koa sees them (headers over 16 KB, a malformed request line, a request that
 * did not arrive in time) get the contract's JSON shape too, instead of Node's bare status line.
 */
export function answerMalformedRequestsWithJson(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const { status, message } = REFUSALS[error.code ?? ""] ?? MALFORMED;
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** Whether the application already began its own answer on this socket (a second one would corrupt it). */
function responseStarted(socket: Socket): boolean {
  // Node keeps the response in flight on the socket; its own clientError fallback makes the same check.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return inFlight?.headersSent === true;
}
