import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { WORKER_HEAP } from "../../src/serve/worker-heap.js";

interface Limits {
  mainBefore: number;
  mainAfter: number;
  asked: number;
  asked48: number;
}

/** The limits of the main thread's heap and of workers' heaps, under `npm start`'s semi-space flag. */
function limits(reset: boolean): Limits {
  const out = execFileSync(
    process.execPath,
    [
      "--max-semi-space-size=2",
      "--import",
      "tsx",
      "test/fixtures/serve/worker-heap-limits.ts",
      ...(reset ? ["reset"] : []),
    ],
    { encoding: "utf8" },
  );
  return JSON.parse(out) as Limits;
}

describe("worker heaps under npm start's --max-semi-space-size", () => {
  it("the flag overrides what a worker asks for, unless the primary clears it (V8 reads flags per isolate)", () => {
    const kept = limits(false);
    expect(kept.asked48).toBe(kept.asked);

    const cleared = limits(true);
    // heap_size_limit = the old generation + the young one (two semi-spaces and a large-object space).
    expect(cleared.asked48).toBe(WORKER_HEAP.maxOldGenerationSizeMb + 48);
    expect(cleared.asked).toBe(WORKER_HEAP.maxOldGenerationSizeMb + WORKER_HEAP.maxYoungGenerationSizeMb);
    // The primary's own heap keeps the start command's young generation.
    expect(cleared.mainAfter).toBe(cleared.mainBefore);
    expect(cleared.mainBefore).toBe(kept.mainBefore);
  }, 30_000);
});
