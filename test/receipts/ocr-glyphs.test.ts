import { createCanvas } from "@napi-rs/canvas";
import type Tesseract from "tesseract.js";
import { describe, expect, it } from "vitest";
import type { ReceiptClaim } from "../../src/banks/receipt-claim.js";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { sameButLookAlikes } from "../../src/reading/confusables.js";
import { withGlyphReference } from "../../src/receipts/doubtful.js";
import { glyphReadings } from "../../src/receipts/ocr/glyphs.js";
import { straightened } from "../../src/receipts/ocr/straightened.js";
import { ensureFonts, font } from "../fixtures/photos/render/fonts.js";

/**
 * A line of tesseract's blocks output: each word a string, each glyph `width` wide (a digit 10, say) and
 * `heights[i]` tall (18, a capital's height, unless given).
 */
function page(...words: (readonly [string, readonly number[], (readonly number[])?])[]): Tesseract.Block[] {
  let x = 0;
  const line = {
    words: words.map(([text, widths, heights = []]) => ({
      text,
      symbols: [...text].map((ch, i) => {
        const width = widths[i] ?? 10;
        const height = heights[i] ?? 18;
        const symbol = { text: ch, confidence: 99, bbox: { x0: x, y0: 0, x1: x + width, y1: height } };
        x += width + 2;
        return symbol;
      }),
    })),
  };
  return [{ paragraphs: [{ lines: [line] }] }] as unknown as Tesseract.Block[];
}

/** How tall a glyph stands: a capital or digit 18, a small letter at x-height 13, with a stem 19. */
const glyphHeight = (ch: string) => (/[a-z]/.test(ch) ? (/[aceimnorsuvwxz]/.test(ch) ? 13 : 19) : 18);

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
      [
        "v2-bUzL9H8DhFcRPfHEiyEl",
        [...Array<number>(22).fill(10), 3],
        [..."v2-bUzL9H8DhFcRPfHEiyEl"].map(glyphHeight),
      ],
    );
    expect(glyphReadings(blocks)).toEqual([]);
  });

  it("reads a narrow O as a 0 where the page's own names show that its font draws O wide", () => {
    // "ROBEL": a confident O 14 wide against digits 10 wide; the code's O is 10 wide like its digits.
    const names = ["ROBEL", [10, 14, 10, 10, 10]] as const;
    const digits = ["73.45", []] as const;
    expect(glyphReadings(page(names, digits, ["Z3U3GKEOVK", []]))).toEqual([
      { read: "Z3U3GKEOVK", glyphs: "Z3U3GKE0VK" },
    ]);
    // An O as wide as the name's stays; so does every O when the name's O is no wider than a digit.
    expect(glyphReadings(page(names, digits, ["Z3U3GKEOVK", [10, 10, 10, 10, 10, 10, 10, 14]]))).toEqual([]);
    expect(glyphReadings(page(["ROBEL", []], digits, ["Z3U3GKEOVK", []]))).toEqual([]);
    // A box a fraction of a glyph wide measures nothing.
    expect(glyphReadings(page(names, ["Z3U3GKEOVK", [10, 10, 10, 10, 10, 10, 10, 5]]))).toEqual([]);
  });

  it("reads the case of a size-only letter in a mixed-case token by its height", () => {
    // "v2-bUZL9H8D": the Z stands at x-height (13 of 18), the U at a capital's height.
    const heights = [13, 18, 2, 19, 18, 13, 18, 18, 18, 18, 18];
    const blocks = page(["v2-bUZL9H8D", [], heights], ["FT26Z40K", [], [18, 18, 18, 18, 13]]);
    expect(glyphReadings(blocks)).toEqual([{ read: "v2-bUZL9H8D", glyphs: "v2-bUzL9H8D" }]);
  });

  it("reads a 0 at x-height in a mixed-case token as the small o it is", () => {
    // "v2-F8042DIGap": the 0 stands at 13 of 18, like the a beside the p.
    const heights = [13, 18, 2, 18, 18, 13, 18, 18, 18, 18, 18, 13, 19];
    expect(glyphReadings(page(["v2-F8042DIGap", [], heights]))).toEqual([
      { read: "v2-F8042DIGap", glyphs: "v2-F8o42DIGap" },
    ]);
    // A 0 as tall as the digits stays a 0.
    expect(glyphReadings(page(["v2-F8042DIGap", [], heights.map((h, i) => (i === 5 ? 18 : h))]))).toEqual([]);
  });

  it("measures the ink, not tesseract's box, where the page is at hand", () => {
    // "B3qvx8D" drawn; the model read the small v and x as capitals and boxed them a capital's height.
    ensureFonts();
    const drawnText = "B3qvx8D";
    const canvas = createCanvas(20 * drawnText.length + 20, 50);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, 50);
    ctx.fillStyle = "#000";
    ctx.font = font(24, "DejaVu Sans");
    for (const [i, ch] of [...drawnText].entries()) ctx.fillText(ch, 10 + 20 * i, 36);
    const { data } = ctx.getImageData(0, 0, canvas.width, 50);
    const grey = new Uint8ClampedArray(canvas.width * 50).map((_, i) => data[i * 4] ?? 255);
    const inkBox = (i: number) => {
      let [x0, y0, x1, y1] = [canvas.width, 50, 0, 0];
      grey.forEach((value, at) => {
        const [x, y] = [at % canvas.width, Math.floor(at / canvas.width)];
        if (value > 128 || x < 8 + 20 * i || x >= 28 + 20 * i) return;
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      });
      return { x0, y0, x1, y1 };
    };
    const capitalTop = inkBox(0).y0;
    const read = "B3qVX8D";
    const symbols = [...read].map((ch, i) => {
      const box = inkBox(i);
      return { text: ch, confidence: 98, bbox: /[VX]/.test(ch) ? { ...box, y0: capitalTop } : box };
    });
    const blocks = [
      { paragraphs: [{ lines: [{ words: [{ text: read, symbols }] }] }] },
    ] as unknown as Tesseract.Block[];
    const pixels = straightened({ grey, width: canvas.width, height: 50 }, 0);
    expect(glyphReadings(blocks, pixels)).toEqual([{ read, glyphs: drawnText }]);
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

describe("look-alike spellings", () => {
  it("include a size-only letter's other case, and a k's or a j's, never another letter's", () => {
    expect(sameButLookAlikes("v2-bUZL9H8D", "v2-bUzL9H8D")).toBe(true);
    expect(sameButLookAlikes("v2-N9n2WGekyY", "v2-N9n2WGeKyY")).toBe(true);
    expect(sameButLookAlikes("v2-pjqzYLu6sg", "v2-pJqzYLu6sg")).toBe(true);
    expect(sameButLookAlikes("FT26278OYXSZ", "FT262780YXSZ")).toBe(true);
    expect(sameButLookAlikes("v2-bAZL9H8D", "v2-baZL9H8D")).toBe(false);
    expect(sameButLookAlikes("FT26278OYXSZ", "FT26278OYXSZ")).toBe(false);
  });
});
