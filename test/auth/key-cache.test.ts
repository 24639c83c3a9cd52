import { describe, expect, it } from "vitest";
import type { Caller } from "../../src/auth/api-keys.js";
import { createKeyCache } from "../../src/auth/key-cache.js";

const caller: Caller = {
  key: { id: 1, label: "till", test: false },
  branch: { id: 2, business: { id: 3 } },
  role: "cashier",
};
const read = (readAt: number) => ({ caller, lastUsedAt: null, readAt });

describe("the API key cache", () => {
  it("remembers nothing until key changes are heard", () => {
    const cache = createKeyCache();
    cache.remember("h", read(0), cache.generation);
    expect(cache.recall("h", 0)).toBeUndefined();
    cache.setLive(true);
    cache.remember("h", read(0), cache.generation);
    expect(cache.recall("h", 0)?.caller).toBe(caller);
  });

  it("does not remember a key read before a change was heard", () => {
    const cache = createKeyCache();
    cache.setLive(true);
    const before = cache.generation;
    cache.forgetAll();
    cache.remember("h", read(0), before);
    expect(cache.recall("h", 0)).toBeUndefined();
  });

  it("forgets everything on a change, when no longer live, and each key after its time", () => {
    const cache = createKeyCache({ ttlMs: 1000 });
    cache.setLive(true);
    cache.remember("h", read(0), cache.generation);
    expect(cache.recall("h", 1000)).toBeDefined();
    expect(cache.recall("h", 1001)).toBeUndefined();
    cache.remember("h", read(0), cache.generation);
    cache.forgetAll();
    expect(cache.recall("h", 0)).toBeUndefined();
    cache.remember("h", read(0), cache.generation);
    cache.setLive(false);
    expect(cache.recall("h", 0)).toBeUndefined();
  });

  it("holds at most maxKeys, dropping the oldest", () => {
    const cache = createKeyCache({ maxKeys: 2 });
    cache.setLive(true);
    for (const hash of ["a", "b", "c"]) cache.remember(hash, read(0), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.recall("a", 0)).toBeUndefined();
    expect(cache.recall("c", 0)).toBeDefined();
  });
});
