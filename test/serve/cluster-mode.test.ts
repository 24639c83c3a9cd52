import { describe, expect, it } from "vitest";
import { startsCluster } from "../../src/serve/cluster-mode.js";

describe("startsCluster (before the configuration is read)", () => {
  it("runs one process when WEB_CONCURRENCY is 1, or unset on one core", () => {
    expect(startsCluster("1", 8)).toBe(false);
    expect(startsCluster(" 1 ", 8)).toBe(false);
    expect(startsCluster(undefined, 1)).toBe(false);
    expect(startsCluster("", 1)).toBe(false);
  });

  it("starts a primary for more, or unset on several cores", () => {
    expect(startsCluster(undefined, 2)).toBe(true);
    expect(startsCluster("", 4)).toBe(true);
    expect(startsCluster("2", 1)).toBe(true);
  });

  it("starts a primary for a value that is no number: its first worker refuses it", () => {
    expect(startsCluster("two", 1)).toBe(true);
  });
});
