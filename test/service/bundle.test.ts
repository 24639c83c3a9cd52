import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `npm test` builds first. V8 keeps every module's source, at two bytes per character once a single
// character is beyond Latin-1: the build escapes them (scripts/build.mjs), which saved 6 MB per worker.
const SERVICE_BUNDLE = path.resolve(import.meta.dirname, "../../dist/service");

describe("the service bundle", () => {
  it("is ASCII, so V8 holds its source at one byte per character", () => {
    const files = readdirSync(SERVICE_BUNDLE).filter((file) => file.endsWith(".js"));
    expect(files.length).toBeGreaterThan(1);
    const wide = files.filter((file) =>
      /[^\0-\x7f]/.test(readFileSync(path.join(SERVICE_BUNDLE, file), "utf8")),
    );
    expect(wide).toEqual([]);
  });
});
