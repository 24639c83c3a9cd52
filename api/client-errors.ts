import { type Server, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";

/**
 * Requests Node refuses before Koa sees them (headers over 16 KB, a malformed request line) get the
 * contract's JSON shape too, instead of Node's bare status line.
 */
export function answerMalformedRequestsWithJson(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const body = JSON.stringify({
      message: status === 431 ? "The request headers are too large." : "The request is malformed.",
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
