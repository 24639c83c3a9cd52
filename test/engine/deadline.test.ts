import { getEventListeners } from "node:events";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { BankUnavailableError } from "../../src/banks/errors.js";
import { linkAbort } from "../../src/cancellation.js";
import { boundLookup } from "../../src/engine/deadline.js";
import { ServiceUnavailableError } from "../../src/errors.js";

describe("boundLookup", () => {
  it("aborts at the deadline with the bank's timeout while the bank is waited for", async () => {
    const bounds = boundLookup("telebirr", Date.now() + 20, []);
    const bank = new Promise<void>((resolve) => bounds.signal.addEventListener("abort", () => resolve()));
    await bounds.waitingForBank(bank);
    expect(bounds.signal.reason).toBeInstanceOf(BankUnavailableError);
    expect(bounds.signal.reason).toMatchObject({ bank: "telebirr", reason: "timeout" });
    bounds.dispose();
  });

  it("aborts at the deadline with the service's 503 when the bank was not the slow part", async () => {
    const bounds = boundLookup("telebirr", Date.now() + 20, []);
    // The bank answered at once; what is still waited for (the database, say) is not the bank.
    await bounds.waitingForBank(Promise.resolve());
    await new Promise<void>((resolve) => bounds.signal.addEventListener("abort", () => resolve()));
    expect(bounds.signal.reason).toBeInstanceOf(ServiceUnavailableError);
    bounds.dispose();
  });

  it("aborts with the reason of the first other signal that fires", () => {
    const client = new AbortController();
    const stopping = new AbortController();
    const bounds = boundLookup("cbe", Date.now() + 60_000, [undefined, client.signal, stopping.signal]);
    const gone = new Error("client gone");
    client.abort(gone);
    stopping.abort(new Error("stopping"));
    expect(bounds.signal.reason).toBe(gone);
    bounds.dispose();
  });

  it("starts aborted when a signal already is", () => {
    const stopping = new AbortController();
    const reason = new Error("stopping");
    stopping.abort(reason);
    const bounds = boundLookup("cbe", Date.now() + 60_000, [stopping.signal]);
    expect(bounds.signal.reason).toBe(reason);
    bounds.dispose();
  });

  it("leaves nothing on a lasting signal once disposed, however many lookups it bounded", () => {
    // The engine's "stopping" signal lives as long as the worker and bounds every verification.
    const stopping = new AbortController();
    for (let n = 0; n < 1_000; n++) boundLookup("telebirr", Date.now() + 60_000, [stopping.signal]).dispose();
    const inFlight = boundLookup("telebirr", Date.now() + 60_000, [stopping.signal]);
    expect(getEventListeners(stopping.signal, "abort")).toHaveLength(1);
    inFlight.dispose();
    expect(getEventListeners(stopping.signal, "abort")).toHaveLength(0);
  });
});

describe("a lasting signal", () => {
  it("does not grow with the lookups it bounded (Node's AbortSignal.any kept a WeakRef a lookup)", async () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const stopping = new AbortController();
    // In batches, each its own turn of the event loop, as verifications come.
    const lookups = async (batches: number) => {
      for (let batch = 0; batch < batches; batch++) {
        for (let n = 0; n < 1_000; n++) {
          boundLookup("telebirr", Date.now() + 60_000, [stopping.signal]).dispose();
        }
        await new Promise(setImmediate);
      }
    };
    await lookups(1);
    collect();
    const before = getHeapStatistics().used_heap_size;
    await lookups(100);
    collect();
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(1024 * 1024);
  });
});

describe("linkAbort", () => {
  it("stops listening once the link fired", () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = new AbortController();
    linkAbort(linked, [first.signal, second.signal]);
    first.abort("first");
    expect(linked.signal.reason).toBe("first");
    // The link is gone: the other's listener was removed, and a later abort of it reaches nothing.
    expect(getEventListeners(second.signal, "abort")).toHaveLength(0);
    second.abort("second");
    expect(linked.signal.reason).toBe("first");
    expect(getEventListeners(first.signal, "abort")).toHaveLength(0);
  });
});
