import type { LookupOutcome } from "../banks/types.js";
import type { PeerClaim, PeerLeads } from "../engine/index.js";
import { isLeadMessage, type LeadMessage, leadMessage } from "./lead-messages.js";
import type { LeadSlots } from "./lead-slots.js";

interface Claim {
  key: string;
  slot: number;
  /** Absent once the caller gave up: a grant that still comes is handed straight back. */
  settle: ((message: LeadMessage) => void) | undefined;
}

export interface WorkerPeerLeads extends PeerLeads {
  /** Feeds a message from the primary in (the worker's `process.on("message")`). */
  receive(message: unknown): void;
}

/**
 * A worker thread's side of PeerLeads. A claim is counted in shared memory (src/serve/lead-slots.ts); when
 * no other worker counts one in its slot, this worker leads the key unasked, and tells the primary only when
 * the primary asks (another worker claimed the same key meanwhile): then its release carries the bank's
 * answer to the primary for the worker that waits. Otherwise the claim goes to the primary
 * (src/serve/lead-registry.ts), one round trip. Identical verifications in this worker wait locally.
 */
export function workerPeerLeads(send: (message: LeadMessage) => void, slots: LeadSlots): WorkerPeerLeads {
  let nextId = 0;
  const claims = new Map<number, Claim>();
  /** Keys led unasked, and whether the primary has asked about it since (then it waits for the release). */
  const unasked = new Map<string, boolean>();

  const release = (key: string, slot: number) => (answer: LookupOutcome | null) => {
    slots.put(slot);
    send(leadMessage({ kind: "release", key, answer }));
  };

  const leadUnasked = (key: string, slot: number): PeerClaim => {
    unasked.set(key, false);
    return {
      lead: true,
      release(answer) {
        const asked = unasked.get(key);
        unasked.delete(key);
        slots.put(slot);
        if (asked) send(leadMessage({ kind: "release", key, answer }));
      },
    };
  };

  send(leadMessage({ kind: "ready" }));
  return {
    claim(key, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      const slot = slots.take(key);
      if (!slots.contended(slot)) return Promise.resolve(leadUnasked(key, slot));
      const id = ++nextId;
      return new Promise<PeerClaim>((resolve, reject) => {
        const claim: Claim = { key, slot, settle: undefined };
        const onAbort = () => {
          claim.settle = undefined;
          slots.put(slot);
          reject(signal.reason);
        };
        claim.settle = (message) => {
          signal.removeEventListener("abort", onAbort);
          if (message.kind === "granted") resolve({ lead: true, release: release(key, slot) });
          else if (message.kind === "done") {
            slots.put(slot);
            resolve({ lead: false, answer: message.answer });
          }
        };
        signal.addEventListener("abort", onAbort, { once: true });
        claims.set(id, claim);
        send(leadMessage({ kind: "claim", id, key }));
      });
    },
    receive(message) {
      if (!isLeadMessage(message)) return;
      if (message.kind === "ask") {
        const leads = unasked.has(message.key);
        if (leads) unasked.set(message.key, true);
        send(leadMessage({ kind: "leading", query: message.query, key: message.key, leads }));
        return;
      }
      if (message.kind !== "granted" && message.kind !== "done") return;
      const claim = claims.get(message.id);
      if (!claim) return;
      claims.delete(message.id);
      if (claim.settle) claim.settle(message);
      // Its count ended when the caller gave up.
      else if (message.kind === "granted")
        send(leadMessage({ kind: "release", key: claim.key, answer: null }));
    },
  };
}
