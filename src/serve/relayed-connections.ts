import type { Server } from "node:http";
import { Duplex } from "node:stream";
import type { MessagePort } from "node:worker_threads";
import { ownBytes, type RelayMessage, WRITE_WINDOW } from "./relay-messages.js";

/** Where an HTTP server gets its connections: a listening socket of its own, or its primary's relay. */
export interface ConnectionSource {
  /** How clients reach the server, for the "listening" log line. */
  readonly kind: "own socket" | "shared port" | "relayed";
  /** Starts serving `server`; resolves with the port clients reach. */
  start(server: Server): Promise<number>;
  /** Takes no new connections; resolves once the open ones have ended (the server closes idle ones). */
  stop(server: Server): Promise<void>;
}

/** A listening socket of the server's own (one process serving alone). */
export function listeningSocket(port: number, host: string): ConnectionSource {
  return {
    kind: "own socket",
    async start(server) {
      server.listen(port, host);
      await new Promise<void>((resolve, reject) => {
        server.once("listening", resolve);
        server.once("error", reject);
      });
      const address = server.address();
      return typeof address === "object" && address ? address.port : port;
    },
    stop: (server) => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A worker thread's side of the primary's relay (connection-relay.ts): each client connection the primary
 * hands over becomes a stream that Node's HTTP server serves as it would a socket.
 */
export function relayedConnections(port: MessagePort): ConnectionSource {
  const open = new Map<number, RelayedSocket>();
  let listening: ((port: number) => void) | undefined;
  let drained: (() => void) | undefined;
  const send = (message: RelayMessage, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);
  const gone = (id: number) => {
    open.delete(id);
    if (open.size === 0) drained?.();
  };

  return {
    kind: "relayed",
    start(server) {
      port.on("message", (message: RelayMessage) => {
        switch (message.kind) {
          case "listening":
            listening?.(message.port);
            return;
          case "open": {
            const socket = new RelayedSocket(message, send, gone);
            open.set(message.id, socket);
            server.emit("connection", socket);
            return;
          }
          case "data":
            open.get(message.id)?.received(message.bytes);
            return;
          case "end":
            open.get(message.id)?.push(null);
            return;
          case "close":
            open.get(message.id)?.peerClosed();
            return;
          case "written":
            open.get(message.id)?.written(message.bytes);
            return;
        }
      });
      return new Promise((resolve) => {
        listening = (clientPort) => {
          // Node's HTTP server starts tracking connections (keep-alive and request timeouts) on "listening".
          server.emit("listening");
          resolve(clientPort);
        };
        send({ kind: "serving" });
      });
    },
    stop(server) {
      send({ kind: "draining" });
      // Not listening itself, the server's close() reports an error: it still closes the idle connections.
      server.close(() => undefined);
      return new Promise((resolve) => {
        drained = () => {
          port.close();
          resolve();
        };
        if (open.size === 0) drained();
      });
    },
  };
}

type Opened = Extract<RelayMessage, { kind: "open" }>;

/**
 * One client connection, as Node's HTTP server sees a socket: bytes in and out, the addresses, and the idle
 * timeout it keeps connections alive with (setTimeout/"timeout"). Writes are sent as they come: the primary
 * writes them to the client and says when its socket has taken them; past WRITE_WINDOW bytes on their way, a
 * write completes only once the client has taken more, so a streamed response (an export) is paced by it.
 */
class RelayedSocket extends Duplex {
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  readonly remoteFamily: string;
  private idleMs = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private peerGone = false;
  /** Bytes sent that the client's socket has not taken yet, as far as the primary has said. */
  private unwritten = 0;
  private heldWrite: (() => void) | undefined;
  /** The primary was told to stop reading the client: the server has not read what came. */
  private readsPaused = false;

  constructor(
    opened: Opened,
    private readonly send: (message: RelayMessage, transfer?: ArrayBuffer[]) => void,
    private readonly gone: (id: number) => void,
    private readonly id = opened.id,
  ) {
    super({ allowHalfOpen: false });
    this.remoteAddress = opened.remoteAddress;
    this.remotePort = opened.remotePort;
    this.localAddress = opened.localAddress;
    this.localPort = opened.localPort;
    this.remoteFamily = opened.remoteAddress.includes(":") ? "IPv6" : "IPv4";
  }

  received(bytes: Uint8Array): void {
    this.active();
    if (!this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) && !this.readsPaused) {
      this.readsPaused = true;
      this.send({ kind: "pause", id: this.id });
    }
  }

  /** The client's socket took this many more bytes. */
  written(bytes: number): void {
    this.unwritten -= bytes;
    if (this.unwritten <= WRITE_WINDOW) this.releaseWrite();
  }

  /** The client's socket closed (or reset): nothing more can be written to it. */
  peerClosed(): void {
    this.peerGone = true;
    this.destroy();
  }

  // The server wants more of the request: the client may be read again.
  override _read(): void {
    if (!this.readsPaused) return;
    this.readsPaused = false;
    this.send({ kind: "resume", id: this.id });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.forward(ownBytes(chunk));
    this.completeWrite(done);
  }

  // A response's head and body, corked together by Node, go as one message.
  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.forward(
      ownBytes(
        chunks.length === 1 && chunks[0] ? chunks[0].chunk : Buffer.concat(chunks.map((c) => c.chunk)),
      ),
    );
    this.completeWrite(done);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (!this.peerGone) this.send({ kind: "end", id: this.id });
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    this.releaseWrite();
    if (!this.peerGone) this.send({ kind: "close", id: this.id });
    this.gone(this.id);
    done(error);
  }

  setTimeout(ms: number, onTimeout?: () => void): this {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.idleMs = ms;
    if (onTimeout) this.once("timeout", onTimeout);
    this.active();
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  private completeWrite(done: () => void): void {
    if (this.unwritten > WRITE_WINDOW && !this.peerGone) this.heldWrite = done;
    else done();
  }

  private releaseWrite(): void {
    const done = this.heldWrite;
    this.heldWrite = undefined;
    done?.();
  }

  private forward(bytes: Uint8Array): void {
    this.active();
    this.unwritten += bytes.byteLength;
    if (!this.peerGone) this.send({ kind: "data", id: this.id, bytes }, [bytes.buffer as ArrayBuffer]);
  }

  private active(): void {
    if (this.idleMs <= 0 || this.destroyed) return;
    if (this.idleTimer) this.idleTimer.refresh();
    else this.idleTimer = setTimeout(() => this.emit("timeout"), this.idleMs).unref();
  }
}
