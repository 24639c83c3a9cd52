import type { LookupOutcome } from "../banks/types.js";
import { isLeadMessage, type LeadMessage, leadMessage } from "./lead-messages.js";

/** A worker as the registry knows it: an id and a way to reach it. */
export interface LeadPeer {
  id: number;
  send(message: LeadMessage): void;
}

interface Lead {
  /** The worker leading the key; undefined while the other workers are asked whether one leads it unasked. */
  holder: number | undefined;
  /** In order of their claims: the first is granted the key when nobody turns out to lead it. */
  followers: { peer: LeadPeer; id: number }[];
  asking: { query: number; waiting: Set<number> } | undefined;
}

/**
 * The primary's side of PeerLeads: which worker leads which verification key. Most keys are led without
 * the primary hearing of them (src/serve/lead-slots.ts); a claim reaches it only when another worker counts
 * a claim in the key's slot. For a key it knows, the claim waits for the holder's release and gets its bank
 * answer. For one it does not, it asks the other workers whether one leads that very key: the one that
 * does becomes its holder; when none does (a collision, or a release in between), the claim is granted.
 * A worker that exits releases what it held, without an answer, so nobody waits on a process that is gone.
 */
export function createLeadRegistry() {
  const leads = new Map<string, Lead>();
  const ready = new Map<number, LeadPeer>();
  let nextQuery = 0;

  function release(key: string, holder: number, answer: LookupOutcome | null): void {
    const lead = leads.get(key);
    if (!lead || lead.holder !== holder) return;
    leads.delete(key);
    for (const { peer, id } of lead.followers) peer.send(leadMessage({ kind: "done", id, answer }));
  }

  /** Nobody leads the key: the first claim still waiting gets it. */
  function grantFirst(key: string, lead: Lead): void {
    lead.asking = undefined;
    const first = lead.followers.shift();
    if (!first) {
      leads.delete(key);
      return;
    }
    lead.holder = first.peer.id;
    first.peer.send(leadMessage({ kind: "granted", id: first.id }));
  }

  function claim(peer: LeadPeer, id: number, key: string): void {
    const lead = leads.get(key);
    if (lead) {
      lead.followers.push({ peer, id });
      return;
    }
    const others = [...ready.values()].filter((other) => other.id !== peer.id);
    const query = ++nextQuery;
    const asking = others.length ? { query, waiting: new Set(others.map((other) => other.id)) } : undefined;
    const created: Lead = { holder: undefined, followers: [{ peer, id }], asking };
    leads.set(key, created);
    if (!asking) grantFirst(key, created);
    for (const other of others) other.send(leadMessage({ kind: "ask", query, key }));
  }

  function answered(peer: LeadPeer, query: number, key: string, leadsIt: boolean): void {
    const lead = leads.get(key);
    if (!lead?.asking || lead.asking.query !== query) return;
    if (leadsIt) {
      lead.holder = peer.id;
      lead.asking = undefined;
      return;
    }
    lead.asking.waiting.delete(peer.id);
    if (lead.asking.waiting.size === 0) grantFirst(key, lead);
  }

  return {
    receive(peer: LeadPeer, message: unknown): void {
      if (!isLeadMessage(message)) return;
      if (message.kind === "ready") ready.set(peer.id, peer);
      else if (message.kind === "claim") claim(peer, message.id, message.key);
      else if (message.kind === "leading") answered(peer, message.query, message.key, message.leads);
      else if (message.kind === "release") release(message.key, peer.id, message.answer);
    },
    /** The worker is gone: its leads end without an answer, and it answers no question any more. */
    forget(peerId: number): void {
      ready.delete(peerId);
      for (const [key, lead] of [...leads]) {
        if (lead.holder === peerId) {
          release(key, peerId, null);
          continue;
        }
        lead.followers = lead.followers.filter(({ peer }) => peer.id !== peerId);
        if (lead.asking?.waiting.delete(peerId) && lead.asking.waiting.size === 0) grantFirst(key, lead);
        else if (lead.holder === undefined && !lead.followers.length) leads.delete(key);
      }
    },
    /** Keys led or asked about right now (tests). */
    get size() {
      return leads.size;
    },
  };
}

export type LeadRegistry = ReturnType<typeof createLeadRegistry>;
