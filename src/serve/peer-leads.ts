import type { LookupOutcome } from "../banks/types.js";
import type { PeerClaim, PeerLeads } from "../engine/index.js";
import { isLeadMessage, type LeadMessage, leadMessage } from "./lead-messages.js";

interface Claim {
  key: string;
  /** Absent once the caller gave up: a grant that still comes is handed straight back. */
  settle: ((message: LeadMessage) => void) | undefined;
}

export interface WorkerPeerLeads extends PeerLeads {
  /** Feeds a message from the primary in (the worker's `process.on("message")`). */
  receive(message: unknown): void;
}

/**
 * A worker thread's side of PeerLeads: claims go to the primary (src/serve/lead-registry.ts) over the IPC
 * channel, one round trip per verification that leads in this worker (identical ones here wait locally).
 */
export function workerPeerLeads(send: (message: LeadMessage) => void): WorkerPeerLeads {
  let nextId = 0;
  const claims = new Map<number, Claim>();

  const release = (key: string) => (answer: LookupOutcome | null) =>
    send(leadMessage({ kind: "release", key, answer }));

  return {
    claim(key, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      const id = ++nextId;
      return new Promise<PeerClaim>((resolve, reject) => {
        const claim: Claim = { key, settle: undefined };
        const onAbort = () => {
          claim.settle = undefined;
          reject(signal.reason);
        };
        claim.settle = (message) => {
          signal.removeEventListener("abort", onAbort);
          if (message.kind === "granted") resolve({ lead: true, release: release(key) });
          else if (message.kind === "done") resolve({ lead: false, answer: message.answer });
        };
        signal.addEventListener("abort", onAbort, { once: true });
        claims.set(id, claim);
        send(leadMessage({ kind: "claim", id, key }));
      });
    },
    receive(message) {
      if (!isLeadMessage(message) || (message.kind !== "granted" && message.kind !== "done")) return;
      const claim = claims.get(message.id);
      if (!claim) return;
      claims.delete(message.id);
      if (claim.settle) claim.settle(message);
      else if (message.kind === "granted") release(claim.key)(null);
    },
  };
}
