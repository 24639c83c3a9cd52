import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { keepingPlatformBuiltins } from "../../src/pdf/platform-builtins.js";

/** What a child process (a thread new to pdf.js) reports after reading a PDF one way or the other. */
function afterPdf(how: "service" | "plain"): { replaced: string[]; text: string } {
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", "test/fixtures/pdf/builtins-after-pdf.ts", how],
    { encoding: "utf8" },
  );
  return JSON.parse(out) as { replaced: string[]; text: string };
}

describe("the platform's built-ins after the PDF reader loads", () => {
  it("pdf-parse as it is replaces push, JSON.parse and toString with core-js's (why the guard exists)", () => {
    expect(afterPdf("plain").replaced).toEqual([
      "Array.prototype.push",
      "JSON.parse",
      "Function.prototype.toString",
    ]);
  }, 60_000);

  it("reading a PDF the service's way leaves them the platform's own, and reads the text", () => {
    const { replaced, text } = afterPdf("service");
    expect(replaced).toEqual([]);
    expect(text).toContain("Amount 1,250.00 ETB");
  }, 60_000);

  it("puts back what a load replaced and keeps what it added", async () => {
    const parse = JSON.parse;
    const math = Math as Math & { answer?: () => number };
    const result = await keepingPlatformBuiltins(async () => {
      JSON.parse = (text: string) => ({ polyfilled: text });
      math.answer = () => 42;
      return "loaded";
    });
    try {
      expect(result).toBe("loaded");
      expect(JSON.parse).toBe(parse);
      expect(math.answer?.()).toBe(42);
    } finally {
      delete math.answer;
    }
  });

  it("puts them back when the load fails too", async () => {
    const parse = JSON.parse;
    const failing = keepingPlatformBuiltins(async () => {
      JSON.parse = () => null;
      throw new Error("no PDF reader");
    });
    await expect(failing).rejects.toThrow("no PDF reader");
    expect(JSON.parse).toBe(parse);
  });
});
