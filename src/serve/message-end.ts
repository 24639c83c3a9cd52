import { type MessagePort, parentPort } from "node:worker_threads";

/**
 * Either end of the channel between the primary and a worker thread: the primary's `Worker`, or the
 * worker's `parentPort`. Messages are structured clones (dates and errors survive).
 */
export interface MessageEnd {
  postMessage(message: unknown): void;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
}

/** A worker thread's end of its channel to the primary. */
export function toPrimary(): MessageEnd {
  if (!parentPort) throw new Error("not a worker thread");
  return parentPort;
}

/** primary → worker thread: drain and exit. */
export const STOP_MESSAGE = "birrcheck:stop";

/** What a worker thread is started with (src/serve/primary.ts). */
export interface WorkerThreadData {
  workerId: number;
  /** The port its client connections come through (connection-relay.ts). */
  connections: MessagePort;
  /**
   * Shared with the primary: 1 while the embedded PostgreSQL it runs is up (or the database is external),
   * 0 while it is down and being restarted; read on every /healthz.
   */
  databaseUp: Int32Array;
  /** Shared with the primary and the other workers: the claims in flight (lead-slots.ts). */
  leadCounts: Int32Array;
  /** This worker's row in `leadCounts`: the row of the worker it replaces, if any. */
  row: number;
}
