import { describe, expect, it } from "vitest";
import type { LookupOutcome } from "../../src/banks/types.js";
import {
  batchedLeadSender,
  type LeadMessage,
  leadMessage,
  leadMessagesIn,
} from "../../src/serve/lead-messages.js";
import { createLeadRegistry } from "../../src/serve/lead-registry.js";
import { workerPeerLeads } from "../../src/serve/peer-leads.js";

// The primary's registry and two workers' PeerLeads wired together as the worker threads' messages would be,
// delivered asynchronously in order.
function workers() {
  const registry = createLeadRegistry();
  const worker = (id: number) => {
    const leads = workerPeerLeads((message) => queueMicrotask(() => registry.receive(peer, message)));
    const peer = { id, send: (message: LeadMessage) => queueMicrotask(() => leads.receive(message)) };
    return leads;
  };
  return { registry, one: worker(1), two: worker(2) };
}

const answer = { kind: "not_found" } satisfies LookupOutcome;
const never = () => new AbortController().signal;

describe("identical verifications across worker threads", () => {
  it("grants a free key, and a claim on a held key gets the holder's answer when it releases", async () => {
    const { registry, one, two } = workers();
    const lead = await one.claim("k", never());
    expect(lead.lead).toBe(true);
    const follower = two.claim("k", never());
    await new Promise((resume) => setTimeout(resume, 10));
    if (lead.lead) lead.release(answer);
    expect(await follower).toEqual({ lead: false, answer });
    expect(registry.size).toBe(0);
    // Released: the next claim leads again.
    expect((await two.claim("k", never())).lead).toBe(true);
  });

  it("a follower that gives up stops waiting; the lead is unaffected", async () => {
    const { one, two } = workers();
    await one.claim("k", never());
    const abort = new AbortController();
    const follower = two.claim("k", abort.signal);
    abort.abort(new Error("client left"));
    await expect(follower).rejects.toThrow("client left");
  });

  it("a grant that arrives after its claimant gave up is handed straight back", async () => {
    const { registry, one, two } = workers();
    const abort = new AbortController();
    const claim = one.claim("k", abort.signal);
    abort.abort(new Error("gone"));
    await expect(claim).rejects.toThrow("gone");
    await new Promise((resume) => setTimeout(resume, 10));
    expect(registry.size).toBe(0);
    expect((await two.claim("k", never())).lead).toBe(true);
  });

  it("a worker that exits releases its keys without an answer", async () => {
    const { registry, one, two } = workers();
    await one.claim("k", never());
    const follower = two.claim("k", never());
    await new Promise((resume) => setTimeout(resume, 10));
    registry.forget(1);
    expect(await follower).toEqual({ lead: false, answer: null });
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
