import type { LookupOutcome } from "../banks/types.js";

/**
 * What worker threads and their primary say to each other about who leads a verification key (see
 * PeerLeads in src/engine/collapse.ts). Tagged, because the IPC channel also carries Node's own messages.
 */
export type LeadMessage = LeadBody & { tag: typeof TAG };

type LeadBody =
  /** worker → primary: I can be asked whether I lead a key (sent once, as it starts). */
  | { kind: "ready" }
  /** worker → primary: may I lead `key`? (`id` names this claim in the worker) */
  | { kind: "claim"; id: number; key: string }
  /** primary → worker: do you lead `key` without having claimed it from me? (`query` names the question) */
  | { kind: "ask"; query: number; key: string }
  /** worker → primary: the answer to `query` (when yes, a release with the bank's answer follows). */
  | { kind: "leading"; query: number; key: string; leads: boolean }
  /** primary → worker: you lead it. */
  | { kind: "granted"; id: number }
  /** primary → worker: the process that led it is done; here is its bank answer, if it had one. */
  | { kind: "done"; id: number; answer: LookupOutcome | null }
  /** worker → primary: I no longer lead `key`. */
  | { kind: "release"; key: string; answer: LookupOutcome | null };

const TAG = "birrcheck:lead";

export function leadMessage(body: LeadBody): LeadMessage {
  return { tag: TAG, ...body };
}

export function isLeadMessage(message: unknown): message is LeadMessage {
  return typeof message === "object" && message !== null && (message as { tag?: unknown }).tag === TAG;
}

const BATCH_TAG = "birrcheck:leads";

/** What one IPC message carries: the lead messages said to one process within one turn of the event loop. */
interface LeadBatch {
  tag: typeof BATCH_TAG;
  messages: LeadMessage[];
}

/**
 * Sends the lead messages of one turn of the event loop as one IPC message. Every IPC message costs both
 * processes system calls and a wake-up: one each for a claim, its grant and its release came to a tenth of
 * a verification's CPU on two workers (README, "Performance"); under load a turn carries several.
 */
export function batchedLeadSender(send: (batch: LeadBatch) => void): (message: LeadMessage) => void {
  let pending: LeadMessage[] | null = null;
  return (message) => {
    if (pending) {
      pending.push(message);
      return;
    }
    const messages = [message];
    pending = messages;
    setImmediate(() => {
      pending = null;
      send({ tag: BATCH_TAG, messages });
    });
  };
}

/** The lead messages an IPC message carries; none when it is something else (Node's own, metrics). */
export function leadMessagesIn(ipc: unknown): readonly LeadMessage[] {
  if (typeof ipc !== "object" || ipc === null || (ipc as { tag?: unknown }).tag !== BATCH_TAG) return [];
  const { messages } = ipc as { messages?: unknown };
  return Array.isArray(messages) ? messages.filter(isLeadMessage) : [];
}
