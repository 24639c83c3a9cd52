import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";

/**
 * Each bank's labels are written once, in `src/banks/<bank>/labels.ts`, for both its adapter and its
 * receipt reader. This reads the bank's other reading files as text and fails on a label written there again.
 */
const folder = (bank: BankCode) => new URL(`../../src/banks/${bank}/`, import.meta.url);
const READERS = ["adapter.ts", "receipt.ts", "parse.ts"];

/**
 * A file's code without comments, double-quoted strings and template strings (messages name their label);
 * String.raw templates are patterns and are kept.
 */
const codeOf = (file: URL) =>
  readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .replace(/(?<!String\.raw)`(?:[^`\\]|\\.)*`/g, "``");

/** A label's first two words as code would write them: /payer name/i, String.raw`Payer\s*Name`. */
function writtenAs(source: string): RegExp | null {
  const lead = /^[A-Za-z]+(?:\\s[*+?]?[A-Za-z]+)+/.exec(source.replace(/\(\?:[^()]*\)\?/g, ""))?.[0];
  const words = lead?.split(/\\s[*+?]?/) ?? [];
  if (words.length < 2) return null;
  return new RegExp(String.raw`(?<![A-Za-z])${words[0]}(?: +|\\s[*+?]?)${words[1]}`, "i");
}

const withLabels = BANK_CODES.filter((bank) => existsSync(new URL("labels.ts", folder(bank))));

describe("each bank's labels are written once", () => {
  it("finds a label written as code", () => {
    expect(writtenAs(String.raw`Payer\s*Name`)?.test("/^payer name/i")).toBe(true);
    expect(writtenAs(String.raw`Payer\s*Name`)?.test("String.raw`Payer\\s*Name`")).toBe(true);
  });

  it.each(withLabels)("%s: only in labels.ts", async (bank) => {
    const profile = new URL("labels.ts", folder(bank)).href;
    const { LABELS } = (await import(/* @vite-ignore */ profile)) as { LABELS: Record<string, string> };
    for (const file of READERS.map((name) => new URL(name, folder(bank))).filter(existsSync)) {
      const code = codeOf(file);
      for (const [key, source] of Object.entries(LABELS)) {
        const pattern = writtenAs(source);
        if (pattern) expect(pattern.exec(code)?.[0], `${file.pathname}: ${key}`).toBeUndefined();
      }
    }
  });
});
