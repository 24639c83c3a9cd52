import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";
import type { ReceiptClaim } from "../../src/banks/receipt-claim.js";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { detectBank } from "../../src/receipts/detect.js";

/**
 * The receipt corpus: test/fixtures/receipts/<bank>/<case>.txt with <case>.json beside it:
 *   { "kind": "pdf" | "html-copy" | "app-copy" | "ocr" | "sms", "detect": true, "claim": { …ReceiptClaim subset } }
 * `detect: false` marks a text whose bank cannot be told without a hint (a bare FT reference).
 */
interface Expectation {
  kind: "pdf" | "html-copy" | "app-copy" | "ocr" | "sms";
  detect?: boolean;
  claim: Partial<ReceiptClaim>;
}

const ROOT = path.resolve(import.meta.dirname, "../fixtures/receipts");

/**
 * What text each bank really produces (docs/banks.md): PDFs where it serves PDFs, SMS where it sends them.
 */
const REQUIRED: Record<BankCode, Expectation["kind"][]> = {
  cbe: ["pdf", "ocr", "sms"],
  telebirr: ["html-copy", "ocr", "sms"],
  dashen: ["pdf", "html-copy", "ocr", "sms"],
  awash: ["html-copy", "ocr", "sms"],
  boa: ["app-copy", "ocr", "sms"],
  zemen: ["pdf", "ocr"],
  cbebirr: ["pdf", "ocr"],
  mpesa: ["pdf", "ocr", "sms"],
  sinqee: ["html-copy", "ocr"],
  amhara: ["html-copy", "ocr"],
};

function cases(bank: BankCode) {
  const dir = path.join(ROOT, bank);
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".txt"));
  } catch {
    return [];
  }
  return files.map((file) => {
    const name = file.replace(/\.txt$/, "");
    const expectation = JSON.parse(readFileSync(path.join(dir, `${name}.json`), "utf8")) as Expectation;
    return { name, text: readFileSync(path.join(dir, file), "utf8"), expectation };
  });
}

describe.each(BANK_CODES)("receipt corpus: %s", (bank) => {
  const corpus = cases(bank);

  it("covers every kind of text the bank produces, and copied text", () => {
    const kinds = new Set(corpus.map((c) => c.expectation.kind));
    expect([...kinds]).toEqual(expect.arrayContaining(REQUIRED[bank]));
    expect(kinds.has("html-copy") || kinds.has("app-copy")).toBe(true);
  });

  it.each(corpus.map((c) => [c.name, c] as const))("parses %s with the bank hint", (_name, c) => {
    const claim = RECEIPT_PARSERS[bank].parse(c.text);
    expect(claim).toMatchObject({ bank, ...c.expectation.claim });
  });

  it.each(corpus.map((c) => [c.name, c] as const))("detects the bank of %s", (_name, c) => {
    const detection = detectBank(c.text);
    if (c.expectation.detect === false) expect(detection.kind).toBe("ambiguous");
    else expect(detection).toEqual({ kind: "detected", bank });
  });
});
