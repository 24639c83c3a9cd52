import type { LookupOutcome } from "../banks/types.js";
import { isLeadMessage, type LeadMessage, leadMessage } from "./lead-messages.js";

/** A worker as the registry knows it: an id and a way to reach it. */
export interface LeadPeer {
  id: number;
  send(message: LeadMessage): void;
}

interface Lead {
  holder: number;
  followers: { peer: LeadPeer; id: number }[];
}

/**
 * The primary's side of PeerLeads: which worker leads which verification key. A claim on a free key
 * is granted; one on a held key waits for the holder's release and gets its bank answer. A worker that
 * exits releases what it held, without an answer, so nobody waits on a process that is gone.
 */
export function createLeadRegistry() {
  const leads = new Map<string, Lead>();

  function release(key: string, holder: number, answer: LookupOutcome | null): void {
    const lead = leads.get(key);
    if (!lead || lead.holder !== holder) return;
    leads.delete(key);
    for (const { peer, id } of lead.followers) peer.send(leadMessage({ kind: "done", id, answer }));
  }

  return {
    receive(peer: LeadPeer, message: unknown): void {
      if (!isLeadMessage(message)) return;
      if (message.kind === "claim") {
        const lead = leads.get(message.key);
        if (lead) lead.followers.push({ peer, id: message.id });
        else {
          leads.set(message.key, { holder: peer.id, followers: [] });
          peer.send(leadMessage({ kind: "granted", id: message.id }));
        }
      } else if (message.kind === "release") release(message.key, peer.id, message.answer);
    },
    /** The worker is gone: its leads end without an answer. */
    forget(peerId: number): void {
      for (const [key, lead] of [...leads]) {
        if (lead.holder === peerId) release(key, peerId, null);
        else lead.followers = lead.followers.filter(({ peer }) => peer.id !== peerId);
      }
    },
    /** Keys led right now (tests). */
    get size() {
      return leads.size;
    },
  };
}

export type LeadRegistry = ReturnType<typeof createLeadRegistry>;
