import type Tesseract from "tesseract.js";
import { describe, expect, it } from "vitest";
import type { ReceiptClaim } from "../../src/banks/receipt-claim.js";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { withGlyphReference } from "../../src/receipts/doubtful.js";
import { glyphReadings } from "../../src/receipts/ocr/glyphs.js";

/** A line of tesseract's blocks output: each word a string, each glyph `width` wide (a digit 10, say). */
function page(...words: (readonly [string, readonly number[]])[]): Tesseract.Block[] {
  let x = 0;
  const line = {
    words: words.map(([text, widths]) => ({
      text,
      symbols: [...text].map((ch, i) => {
        const width = widths[i] ?? 10;
        const symbol = { text: ch, confidence: 99, bbox: { x0: x, y0: 0, x1: x + width, y1: 18 } };
        x += width + 2;
        return symbol;
      }),
    })),
  };
  return [{ paragraphs: [{ lines: [line] }] }] as unknown as Tesseract.Block[];
}

describe("glyph widths", () => {
  it("reads a 0 wider than the digits beside it as an O, and a 1 that is a bar as an I", () => {
    const blocks = page(
      ["Ref:", [6, 8, 4, 3]],
      ["DEFWY45I5O", []],
      ["FT262780YXSZ", [9, 9, 10, 10, 10, 10, 10, 14]],
      ["DEFWY451SO", [14, 11, 10, 20, 14, 10, 10, 3]],
    );
    expect(glyphReadings(blocks)).toEqual([
      { read: "FT262780YXSZ", glyphs: "FT26278OYXSZ" },
      { read: "DEFWY451SO", glyphs: "DEFWY45ISO" },
    ]);
  });

  it("leaves a narrow O, a stretched box and a mixed-case token's bar as read", () => {
    const blocks = page(
      ["Z3U3GKEOVK", []],
      ["376ZKZO2625600UV", [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 30]],
      ["v2-bUzL9H8DhFcRPfHEiyEl", [...Array<number>(22).fill(10), 3]],
    );
    expect(glyphReadings(blocks)).toEqual([]);
  });

  it("needs digits to measure against", () => {
    expect(glyphReadings(page(["ABCDEF0G", [10, 10, 10, 10, 10, 10, 15]]))).toEqual([]);
  });
});

describe("the reference as its glyphs read it", () => {
  const reread = (text: string) => RECEIPT_PARSERS.boa.parse(text)?.transactionNumber ?? null;
  const text = "Bank of Abyssinia\nTransaction Reference\tFT262780YXSZ\nAmount\t35,000.00";
  const claim = RECEIPT_PARSERS.boa.parse(text) as ReceiptClaim;

  it("is taken when the text read again names the same reference but for look-alikes", () => {
    const glyphs = [{ read: "FT262780YXSZ", glyphs: "FT26278OYXSZ" }];
    expect(withGlyphReference(claim, text, glyphs, reread).transactionNumber).toBe("FT26278OYXSZ");
  });

  it("is not taken when the widths would make another reference or none", () => {
    expect(withGlyphReference(claim, text, [], reread)).toBe(claim);
    const other = [{ read: "FT262780YXSZ", glyphs: "FT26278OYXQQ" }];
    expect(withGlyphReference(claim, text, other, reread)).toBe(claim);
  });
});
