import { describe, expect, it } from "vitest";
import { startsPrimary } from "../../src/serve/primary-mode.js";

describe("startsPrimary (before the configuration is read)", () => {
  it("runs one process when WEB_CONCURRENCY is 1, or unset on one core", () => {
    expect(startsPrimary("1", 8)).toBe(false);
    expect(startsPrimary(" 1 ", 8)).toBe(false);
    expect(startsPrimary(undefined, 1)).toBe(false);
    expect(startsPrimary("", 1)).toBe(false);
  });

  it("starts a primary for more, or unset on several cores", () => {
    expect(startsPrimary(undefined, 2)).toBe(true);
    expect(startsPrimary("", 4)).toBe(true);
    expect(startsPrimary("2", 1)).toBe(true);
  });

  it("starts a primary for a value that is no number: its first worker refuses it", () => {
    expect(startsPrimary("two", 1)).toBe(true);
  });
});
