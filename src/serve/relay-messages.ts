/**
 * What travels on a worker's connection port (connection-relay.ts ↔ relayed-connections.ts) where the
 * workers cannot listen on one port themselves (shared-port.ts): the primary owns the listening socket and
 * every client's TCP connection; a worker thread serves HTTP on them through these messages. Bytes travel
 * as plain Uint8Arrays whose buffers are transferred, never copied twice.
 *
 * Backpressure both ways, without a message more for a connection that keeps up: a worker has at most
 * WRITE_WINDOW bytes of a connection on their way to its client (the primary acknowledges them WRITE_ACK at
 * a time, once its socket has taken them), and asks the primary to stop reading a client while its server
 * has not read what came.
 */
export type RelayMessage =
  /**
   * worker → primary: my HTTP server is ready; route connections to me, or, with `port`, I listen on that
   * port myself beside my peers (shared-port.ts, SO_REUSEPORT) and need no relaying.
   */
  | { kind: "serving"; port?: number }
  /** primary → worker: you are served connections; the port clients reach. */
  | { kind: "listening"; port: number }
  /** worker → primary: I am draining; route no new connections to me. */
  | { kind: "draining" }
  /** primary → worker: a client connected. */
  | {
      kind: "open";
      id: number;
      remoteAddress: string;
      remotePort: number;
      localAddress: string;
      localPort: number;
    }
  /** either way: bytes of connection `id`. */
  | { kind: "data"; id: number; bytes: Uint8Array }
  /** worker → primary: the server has not read what came of connection `id`; stop reading the client. */
  | { kind: "pause"; id: number }
  /** worker → primary: read the client of connection `id` again. */
  | { kind: "resume"; id: number }
  /** primary → worker: this many more of the bytes sent for connection `id` reached the client's socket. */
  | { kind: "written"; id: number; bytes: number }
  /** either way: that side will send no more bytes. */
  | { kind: "end"; id: number }
  /** either way: the connection is gone (the client's socket closed, or the worker destroyed it). */
  | { kind: "close"; id: number };

/** Bytes that own their whole buffer, so that it can be transferred: a slice of Node's pool is copied first. */
export function ownBytes(chunk: Uint8Array): Uint8Array {
  const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
  return whole && chunk.buffer instanceof ArrayBuffer ? chunk : new Uint8Array(chunk);
}

/** A worker's bytes of one connection not yet taken by the client's socket, at most (then its writes wait). */
export const WRITE_WINDOW = 1024 * 1024;
/** The primary acknowledges a connection's bytes in steps of this many (a response smaller costs no message). */
export const WRITE_ACK = 256 * 1024;
