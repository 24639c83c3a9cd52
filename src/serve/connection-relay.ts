import net, { type Server, type Socket } from "node:net";
import type { MessagePort } from "node:worker_threads";
import { ownBytes, type RelayMessage, WRITE_ACK } from "./relay-messages.js";

/** One worker thread as the relay sees it: its connection port and the connections it serves. */
export interface RelayTarget {
  readonly port: MessagePort;
  /** Until the worker says it serves, and again once it drains, it is given no new connection. */
  accepting: boolean;
  readonly connections: Set<number>;
  /**
   * Resolves with the port clients reach once the worker serves: on its own socket, or through the relay
   * once it listens; rejects when the relay's listening failed.
   */
  readonly serving: Promise<number>;
}

export interface ConnectionRelay {
  /** Starts routing to a worker's port once it says it serves (the first time, after `listen`). */
  attach(port: MessagePort): RelayTarget;
  /** The worker is gone: its clients' connections are cut. */
  detach(target: RelayTarget): void;
  /** Stops accepting new connections (those open stay until their workers end them). */
  close(): void;
}

/**
 * The primary's side of serving where worker threads cannot share the port through SO_REUSEPORT
 * (shared-port.ts; Node 20 has no `reusePort` of its own): it listens, hands each new connection to the
 * worker serving the fewest, and passes bytes both ways between the client's socket and the worker's port
 * (relayed-connections.ts), with backpressure both ways (relay-messages.ts). A worker that listens itself
 * says so when it serves, and nothing is relayed to it. Only Node's own modules: the primary loads no
 * library. `listen` is called once, when the first worker asks to be relayed to; it resolves with the port
 * clients reach.
 */
export function createConnectionRelay(listen: (server: Server) => Promise<number>): ConnectionRelay {
  const targets = new Set<RelayTarget>();
  const sockets = new Map<number, Relayed>();
  let nextId = 0;
  let listening: Promise<number> | undefined;
  const served = new Map<RelayTarget, { resolve(port: number): void; reject(error: unknown): void }>();

  const send = (target: RelayTarget, message: RelayMessage, transfer?: ArrayBuffer[]) =>
    target.port.postMessage(message, transfer);

  const server = net.createServer({ noDelay: true }, (socket) => {
    const target = leastBusy(targets);
    if (!target) {
      socket.destroy();
      return;
    }
    const id = ++nextId;
    sockets.set(id, { socket, target, taken: 0 });
    target.connections.add(id);
    send(target, {
      kind: "open",
      id,
      remoteAddress: socket.remoteAddress ?? "",
      remotePort: socket.remotePort ?? 0,
      localAddress: socket.localAddress ?? "",
      localPort: socket.localPort ?? 0,
    });
    socket.on("data", (chunk: Buffer) => {
      const bytes = ownBytes(chunk);
      send(target, { kind: "data", id, bytes }, [bytes.buffer as ArrayBuffer]);
    });
    socket.on("end", () => send(target, { kind: "end", id }));
    // A reset client is just gone: "close" follows and tells the worker.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (sockets.get(id)?.socket !== socket) return;
      sockets.delete(id);
      target.connections.delete(id);
      send(target, { kind: "close", id });
    });
  });

  const fromWorker = (target: RelayTarget, message: RelayMessage) => {
    switch (message.kind) {
      case "serving":
        if (message.port !== undefined) {
          // It listens on the port itself: nothing to relay.
          served.get(target)?.resolve(message.port);
          return;
        }
        listening ??= listen(server);
        listening.then(
          (port) => {
            target.accepting = targets.has(target);
            send(target, { kind: "listening", port });
            served.get(target)?.resolve(port);
          },
          (error: unknown) => served.get(target)?.reject(error),
        );
        return;
      case "draining":
        target.accepting = false;
        return;
      case "data": {
        const open = sockets.get(message.id);
        if (!open) return;
        const length = message.bytes.byteLength;
        open.socket.write(message.bytes, () => {
          open.taken += length;
          if (open.taken < WRITE_ACK) return;
          send(target, { kind: "written", id: message.id, bytes: open.taken });
          open.taken = 0;
        });
        return;
      }
      case "pause":
        sockets.get(message.id)?.socket.pause();
        return;
      case "resume":
        sockets.get(message.id)?.socket.resume();
        return;
      case "end":
        sockets.get(message.id)?.socket.end();
        return;
      case "close": {
        const open = sockets.get(message.id);
        if (!open) return;
        sockets.delete(message.id);
        target.connections.delete(message.id);
        open.socket.destroy();
        return;
      }
    }
  };

  return {
    attach(port) {
      const settle = { resolve: (_port: number) => {}, reject: (_error: unknown) => {} };
      const serving = new Promise<number>((resolve, reject) => Object.assign(settle, { resolve, reject }));
      // Only the first worker's start waits on it; a later worker's failure is not a second report.
      serving.catch(() => undefined);
      const target: RelayTarget = { port, accepting: false, connections: new Set(), serving };
      served.set(target, settle);
      targets.add(target);
      port.on("message", (message: RelayMessage) => fromWorker(target, message));
      return target;
    },
    detach(target) {
      targets.delete(target);
      served.delete(target);
      target.accepting = false;
      for (const id of target.connections) {
        sockets.get(id)?.socket.destroy();
        sockets.delete(id);
      }
      target.connections.clear();
      target.port.close();
    },
    close() {
      if (server.listening) server.close();
    },
  };
}

interface Relayed {
  socket: Socket;
  target: RelayTarget;
  /** Bytes the client's socket has taken since the worker was last told (relay-messages.ts, WRITE_ACK). */
  taken: number;
}

/** The accepting worker with the fewest open connections; the first such on a tie. */
function leastBusy(targets: Iterable<RelayTarget>): RelayTarget | undefined {
  let best: RelayTarget | undefined;
  for (const target of targets) {
    if (target.accepting && (!best || target.connections.size < best.connections.size)) best = target;
  }
  return best;
}
