import { describe, expect, it } from "vitest";
import { parseStaleLimit, staleBy } from "../../bot/staleness.js";

describe("the stale-payment limit", () => {
  it.each([
    ["6h", 360],
    ["2d", 2880],
    ["90m", 90],
    ["OFF", null],
    ["0h", undefined],
    ["91d", undefined],
    ["soon", undefined],
    [undefined, undefined],
  ] as const)("%s is %s", (word, minutes) => {
    expect(parseStaleLimit(word)).toBe(minutes);
  });

  it("flags a payment only past the limit, and never without one or without a date", () => {
    const now = new Date("2026-11-25T12:00:00+03:00");
    expect(staleBy("2026-11-25T10:00:00+03:00", 60, now)).toBe(120);
    expect(staleBy("2026-11-25T11:30:00+03:00", 60, now)).toBeNull();
    expect(staleBy("2026-11-20T12:00:00+03:00", null, now)).toBeNull();
    expect(staleBy(null, 60, now)).toBeNull();
  });
});
