import { describe, expect, it } from "vitest";
import type { LookupOutcome } from "../../src/banks/types.js";
import {
  batchedLeadSender,
  type LeadMessage,
  leadMessage,
  leadMessagesIn,
} from "../../src/serve/lead-messages.js";
import { createLeadRegistry } from "../../src/serve/lead-registry.js";
import { clearRow, leadSlots, sharedLeadSlots } from "../../src/serve/lead-slots.js";
import { workerPeerLeads } from "../../src/serve/peer-leads.js";

// The primary's registry and three workers' PeerLeads wired together as the worker threads' messages would be,
// delivered asynchronously in order, over one shared memory of claims. `claims` lists what reached the primary.
function workers() {
  const registry = createLeadRegistry();
  const counts = sharedLeadSlots();
  const claims: string[] = [];
  const worker = (id: number) => {
    const slots = leadSlots(counts, id - 1, 3);
    const leads = workerPeerLeads((message) => {
      if (message.kind === "claim") claims.push(`${id}:${message.key}`);
      queueMicrotask(() => registry.receive(peer, message));
    }, slots);
    const peer = { id, send: (message: LeadMessage) => queueMicrotask(() => leads.receive(message)) };
    return leads;
  };
  const inFlight = () => counts.reduce((sum, count) => sum + count, 0);
  return { registry, claims, inFlight, one: worker(1), two: worker(2), three: worker(3) };
}

const answer = { kind: "not_found" } satisfies LookupOutcome;
const never = () => new AbortController().signal;
const settled = () => new Promise((resume) => setTimeout(resume, 10));

/** Two keys that hash to the same slot (found by trying). */
function collidingKeys(): [string, string] {
  const counts = sharedLeadSlots();
  const slots = leadSlots(counts, 0, 1);
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const key = `key-${i}`;
    const slot = slots.take(key);
    const earlier = seen.get(slot);
    if (earlier) return [earlier, key];
    seen.set(slot, key);
  }
}

describe("identical verifications across worker threads", () => {
  it("leads a key nobody else claims without a word to the primary", async () => {
    const { registry, claims, inFlight, one, two } = workers();
    const first = await one.claim("a", never());
    const second = await two.claim("b", never());
    expect([first.lead, second.lead]).toEqual([true, true]);
    expect(inFlight()).toBe(2);
    if (first.lead) first.release(answer);
    if (second.lead) second.release(answer);
    await settled();
    expect(claims).toEqual([]);
    expect(registry.size).toBe(0);
    expect(inFlight()).toBe(0);
  });

  it("a claim on a key led unasked waits for that leader's answer", async () => {
    const { registry, claims, inFlight, one, two, three } = workers();
    const lead = await one.claim("k", never());
    expect(lead.lead).toBe(true);
    const follower = two.claim("k", never());
    const another = three.claim("k", never());
    await settled();
    expect(claims).toEqual(["2:k", "3:k"]);
    if (lead.lead) lead.release(answer);
    expect(await follower).toEqual({ lead: false, answer });
    expect(await another).toEqual({ lead: false, answer });
    await settled();
    expect(registry.size).toBe(0);
    expect(inFlight()).toBe(0);
    // Released: the next claim leads unasked again.
    expect((await two.claim("k", never())).lead).toBe(true);
  });

  it("identical claims made at once in every worker: exactly one leads, the others get its answer", async () => {
    for (let round = 0; round < 20; round++) {
      const { inFlight, one, two, three } = workers();
      const all = [one, two, three].map((leads) => leads.claim("k", never()));
      // The leader finishes in its own time; the others must not be answered before.
      const outcomes = await Promise.all(
        all.map(async (claim) => {
          const result = await claim;
          if (result.lead) setTimeout(() => result.release(answer), 5);
          return result.lead ? "lead" : result.answer;
        }),
      );
      expect(outcomes.filter((outcome) => outcome === "lead")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome !== "lead")).toEqual([answer, answer]);
      await settled();
      expect(inFlight()).toBe(0);
    }
  });

  it("a claim that shares a slot with another key, or comes after its leader's release, leads", async () => {
    const { registry, inFlight, one, two } = workers();
    const [first, second] = collidingKeys();
    const lead = await one.claim(first, never());
    // The slot is taken by `first`: the primary asks worker one about `second`, which it does not lead.
    const collided = await two.claim(second, never());
    expect(collided.lead).toBe(true);
    if (collided.lead) collided.release(null);
    if (lead.lead) lead.release(answer);
    await settled();
    expect(registry.size).toBe(0);
    expect(inFlight()).toBe(0);
  });

  it("a claim on a key the primary grants waits there, as does one asked about meanwhile", async () => {
    const { registry, one, two, three } = workers();
    const [first, second] = collidingKeys();
    const unrelated = await one.claim(first, never());
    const granted = await two.claim(second, never());
    expect(granted.lead).toBe(true);
    const follower = three.claim(second, never());
    await settled();
    if (granted.lead) granted.release(answer);
    expect(await follower).toEqual({ lead: false, answer });
    if (unrelated.lead) unrelated.release(null);
    await settled();
    expect(registry.size).toBe(0);
  });

  it("a follower that gives up stops waiting; the lead is unaffected", async () => {
    const { inFlight, one, two } = workers();
    const lead = await one.claim("k", never());
    const abort = new AbortController();
    const follower = two.claim("k", abort.signal);
    abort.abort(new Error("client left"));
    await expect(follower).rejects.toThrow("client left");
    if (lead.lead) lead.release(answer);
    await settled();
    expect(inFlight()).toBe(0);
  });

  it("a grant that arrives after its claimant gave up is handed straight back", async () => {
    const { registry, inFlight, one, two } = workers();
    const [first, second] = collidingKeys();
    const unrelated = await one.claim(first, never());
    const abort = new AbortController();
    const claim = two.claim(second, abort.signal);
    abort.abort(new Error("gone"));
    await expect(claim).rejects.toThrow("gone");
    await settled();
    expect(registry.size).toBe(0);
    if (unrelated.lead) unrelated.release(null);
    expect(inFlight()).toBe(0);
    expect((await two.claim(second, never())).lead).toBe(true);
  });

  it("a worker that exits releases its keys without an answer, and is asked no more", async () => {
    const { registry, one, two, three } = workers();
    const [first, second] = collidingKeys();
    await one.claim(first, never());
    const granted = await two.claim(second, never());
    const follower = three.claim(second, never());
    await settled();
    registry.forget(2);
    expect(granted.lead).toBe(true);
    expect(await follower).toEqual({ lead: false, answer: null });
    // Worker one still counts `first` in the slot: worker three's claim is asked about to it alone, and leads.
    expect((await three.claim(second, never())).lead).toBe(true);
  });

  it("a worker that exits while it is asked counts as not leading", async () => {
    const registry = createLeadRegistry();
    const sent: LeadMessage[] = [];
    const one = { id: 1, send: (message: LeadMessage) => sent.push(message) };
    const two = { id: 2, send: (message: LeadMessage) => sent.push(message) };
    registry.receive(one, leadMessage({ kind: "ready" }));
    registry.receive(two, leadMessage({ kind: "ready" }));
    registry.receive(one, leadMessage({ kind: "claim", id: 7, key: "k" }));
    expect(sent).toEqual([leadMessage({ kind: "ask", query: 1, key: "k" })]);
    registry.forget(2);
    expect(sent.at(-1)).toEqual(leadMessage({ kind: "granted", id: 7 }));
    // A late answer to a question no longer asked changes nothing.
    registry.receive(two, leadMessage({ kind: "leading", query: 1, key: "k", leads: true }));
    registry.receive(one, leadMessage({ kind: "release", key: "k", answer: null }));
    expect(registry.size).toBe(0);
  });
});

describe("the shared memory of claims", () => {
  it("sees another worker's claim in the key's slot, not its own, and forgets an exited worker's", () => {
    const counts = sharedLeadSlots();
    const one = leadSlots(counts, 0, 2);
    const two = leadSlots(counts, 1, 2);
    const slot = one.take("k");
    expect(one.contended(slot)).toBe(false);
    expect(two.contended(two.take("k"))).toBe(true);
    expect(one.contended(one.take("k"))).toBe(true);
    clearRow(counts, 1);
    expect(one.contended(slot)).toBe(false);
    one.put(slot);
    one.put(slot);
    expect(counts.every((count) => count === 0)).toBe(true);
  });
});

describe("lead messages over the IPC channel", () => {
  it("sends what is said within one turn of the event loop as one message, in order", async () => {
    const sent: unknown[] = [];
    const send = batchedLeadSender((batch) => sent.push(batch));
    send(leadMessage({ kind: "claim", id: 1, key: "a" }));
    send(leadMessage({ kind: "claim", id: 2, key: "b" }));
    expect(sent).toEqual([]);
    await new Promise((resume) => setImmediate(resume));
    send(leadMessage({ kind: "release", key: "a", answer: null }));
    await new Promise((resume) => setImmediate(resume));
    expect(sent.map((ipc) => leadMessagesIn(ipc).map((message) => message.kind))).toEqual([
      ["claim", "claim"],
      ["release"],
    ]);
    expect(leadMessagesIn(sent[0]).map((message) => (message.kind === "claim" ? message.key : ""))).toEqual([
      "a",
      "b",
    ]);
  });

  it("finds no lead messages in the channel's other messages", () => {
    for (const other of [
      null,
      "text",
      { cmd: "NODE_CLUSTER" },
      { tag: "birrcheck:metrics" },
      { tag: "birrcheck:leads", messages: "x" },
    ]) {
      expect(leadMessagesIn(other)).toEqual([]);
    }
  });
});
