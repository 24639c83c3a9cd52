import type { LookupOutcome } from "../banks/types.js";

/**
 * What cluster workers and their primary say to each other about who leads a verification key (see
 * PeerLeads in src/engine/collapse.ts). Tagged, because the IPC channel also carries Node's own messages.
 */
export type LeadMessage = LeadBody & { tag: typeof TAG };

type LeadBody =
  /** worker → primary: may I lead `key`? (`id` names this claim in the worker) */
  | { kind: "claim"; id: number; key: string }
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
