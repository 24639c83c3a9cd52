import { createCanvas } from "@napi-rs/canvas";
import type Tesseract from "tesseract.js";
import { describe, expect, it } from "vitest";
import { byShape, caseByShape, thinLetter } from "../../src/receipts/ocr/glyph-shapes.js";
import { glyphReadings } from "../../src/receipts/ocr/glyphs.js";
import { type GreyImage, straightened } from "../../src/receipts/ocr/straightened.js";
import { withThinLetters } from "../../src/receipts/ocr/thin-letters.js";
import { ensureFonts, font } from "../fixtures/photos/render/fonts.js";

/**
 * `ch` drawn as a receipt photo shows it (about 19 px tall, softened by `blur` px), after `before` when given
 * (as the H before the 5 of "ADQCH5…"), and the box tesseract would draw around `ch`: tight around its ink.
 */
function drawn(
  ch: string,
  family: string,
  blur: number,
  before = "",
): { page: GreyImage; symbol: Tesseract.Symbol } {
  ensureFonts();
  const [width, height, at] = [80, 60, 32];
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  ctx.filter = blur > 0 ? `blur(${blur}px)` : "none";
  ctx.fillStyle = "#000";
  ctx.font = font(26, family);
  if (before) ctx.fillText(before, 10, 42);
  ctx.fillText(ch, at, 42);
  const { data } = ctx.getImageData(0, 0, width, height);
  const grey = new Uint8ClampedArray(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = data[i * 4] ?? 255;
  let [x0, y0, x1, y1] = [width, height, 0, 0];
  grey.forEach((value, i) => {
    const [x, y] = [i % width, Math.floor(i / width)];
    if (value > 160 || x < at - 1) return;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
  });
  return {
    page: { grey, width, height },
    symbol: { text: ch, confidence: 91, bbox: { x0, y0, x1, y1 } } as Tesseract.Symbol,
  };
}

const shapeOf = (read: string, ch: string, family: string, blur = 0.6) => {
  const { page, symbol } = drawn(ch, family, blur);
  return byShape(read, symbol, straightened(page, 0));
};

describe("glyph shapes", () => {
  it("reads an S with two closed counters as the 8 it is, and leaves a real S alone", () => {
    for (const family of ["DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif"]) {
      expect(shapeOf("S", "8", family), family).toBe("8");
      expect(shapeOf("S", "S", family), family).toBe("S");
      expect(shapeOf("S", "S", family, 0), family).toBe("S");
    }
  });

  it("reads a 1 with serifs alike at top and foot as a serif I, and leaves a 1's flag alone", () => {
    expect(shapeOf("1", "I", "DejaVu Serif")).toBe("I");
    expect(shapeOf("1", "I", "DejaVu Serif", 0)).toBe("I");
    for (const family of ["DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif"]) {
      expect(shapeOf("1", "1", family), family).toBe("1");
      expect(shapeOf("1", "1", family, 0), family).toBe("1");
    }
    // A T read as 1 has its bar at the top only.
    expect(shapeOf("1", "T", "DejaVu Serif")).toBe("1");
  });

  it("reads an S whose left edge runs straight down from a square corner as the 5 it is", () => {
    for (const family of ["DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif"]) {
      expect(shapeOf("S", "5", family), family).toBe("5");
      expect(shapeOf("S", "5", family, 0), family).toBe("5");
      expect(shapeOf("S", "S", family), family).toBe("S");
      expect(shapeOf("S", "S", family, 1.2), family).toBe("S");
    }
  });

  it("reads an O or 0 whose one hole sits high as a 9, low as a 6, and halfway as read", () => {
    // A blurred serif glyph's hairlines fade under the cut and it breaks apart: then no hole is judged.
    for (const [family, blur] of [
      ["DejaVu Sans", 0.6],
      ["DejaVu Sans Condensed", 0.6],
      ["DejaVu Serif", 0],
    ] as const) {
      for (const read of ["O", "0"]) {
        expect(shapeOf(read, "9", family, blur), family).toBe("9");
        expect(shapeOf(read, "6", family, blur), family).toBe("6");
        for (const ch of "O0DQ") expect(shapeOf(read, ch, family, blur), `${family} ${ch}`).toBe(read);
      }
    }
    expect(shapeOf("O", "6", "DejaVu Serif", 1.2)).toBe("O");
  });

  it("judges the glyph nearest its box when tesseract's box has slid half onto its neighbour", () => {
    for (const [read, ch, judged] of [
      ["S", "5", "5"],
      ["S", "S", "S"],
      ["O", "9", "9"],
      ["O", "0", "O"],
    ] as const) {
      const { page, symbol } = drawn(ch, "DejaVu Sans", 0.6, "H");
      const { x0, x1 } = symbol.bbox;
      const slid = Math.round((x1 - x0) * 0.4);
      const bbox = { ...symbol.bbox, x0: x0 - slid, x1: x1 - slid };
      expect(byShape(read, { ...symbol, text: read, bbox }, straightened(page, 0)), ch).toBe(judged);
    }
  });

  it("judges nothing in a box tesseract stretched over a large page, and does not choke on it", () => {
    const { page, symbol } = drawn("9", "DejaVu Sans", 0.6);
    for (const bbox of [
      { x0: -1500, y0: -150, x1: 1500, y1: 150 },
      { x0: -1500, y0: -1500, x1: 1500, y1: 1500 },
    ]) {
      expect(byShape("O", { ...symbol, text: "O", bbox }, straightened(page, 0))).toBe("O");
    }
  });

  it("only judges the glyphs it knows: an 8, a B or an O is left as read", () => {
    expect(shapeOf("8", "8", "DejaVu Sans")).toBe("8");
    expect(shapeOf("B", "B", "DejaVu Sans")).toBe("B");
    expect(shapeOf("O", "O", "DejaVu Serif")).toBe("O");
  });

  it("gives the code's shape reading among the page's glyph readings", () => {
    // A code whose S is, on the page, an 8: the width measure has no digits to go by, the shape does.
    const { page, symbol } = drawn("8", "DejaVu Sans", 0.6);
    const elsewhere = (text: string, i: number) => ({
      ...symbol,
      text,
      bbox: { x0: i, y0: 0, x1: i + 1, y1: 1 },
    });
    const code = [..."RXWKE"]
      .map(elsewhere)
      .concat({ ...symbol, text: "S" }, elsewhere("R", 6), elsewhere("1", 7));
    const word = { symbols: code };
    const blocks = [{ paragraphs: [{ lines: [{ words: [word] }] }] }] as unknown as Tesseract.Block[];
    expect(glyphReadings(blocks, straightened(page, 0))).toEqual([{ read: "RXWKESR1", glyphs: "RXWKE8R1" }]);
    expect(glyphReadings(blocks)).toEqual([]);
  });
});

describe("the page as tesseract straightened it", () => {
  it("samples the prepared image turned about its centre, clockwise for a positive angle", () => {
    const grey = new Uint8ClampedArray(100 * 100).fill(255);
    grey[50 * 100 + 70] = 0; // right of the centre (50, 50)
    const pixels = straightened({ grey, width: 100, height: 100 }, Math.PI / 2);
    // Turned a quarter clockwise, what was right of the centre is below it.
    expect(pixels(50, 70)).toBeCloseTo(0, 5);
    expect(pixels(70, 50)).toBe(255);
    // Outside the prepared image is paper.
    expect(straightened({ grey, width: 100, height: 100 }, 0.1)(-5, -5)).toBe(255);
  });
});

/** The receipt fonts, sharp and softened as a photo softens them. */
const STYLES = ["DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif"].flatMap((family) =>
  [0, 0.6].map((blur) => ({ family, blur })),
);

describe("the case of a k or a j", () => {
  const caseOf = (read: string, ch: string, family: string, blur: number) => {
    const { page, symbol } = drawn(ch, family, blur);
    return caseByShape(read, symbol, straightened(page, 0));
  };

  it("reads a k whose upper arm reaches the top as K, one whose arm starts at x-height as k", () => {
    for (const { family, blur } of STYLES) {
      expect(caseOf("k", "K", family, blur), `${family} ${blur}`).toBe("K");
      expect(caseOf("K", "k", family, blur), `${family} ${blur}`).toBe("k");
      expect(caseOf("K", "K", family, blur), `${family} ${blur}`).toBe("K");
    }
    expect(caseOf("x", "K", "DejaVu Sans", 0)).toBe("x");
  });

  it("reads a j whose stroke starts at the top of its box as J, one under a dot as j", () => {
    for (const { family, blur } of STYLES) {
      expect(caseOf("j", "J", family, blur), `${family} ${blur}`).toBe("J");
      expect(caseOf("J", "j", family, blur), `${family} ${blur}`).toBe("j");
      expect(caseOf("j", "j", family, blur), `${family} ${blur}`).toBe("j");
    }
  });
});

describe("thin letters", () => {
  /** One line of words; each mark stands on the drawn glyph `ch`, the other symbols anywhere. */
  const page = (ch: string, ...words: string[][]) => {
    const { page: drawnPage, symbol } = drawn(ch, "DejaVu Sans", 0.6);
    const box = { x0: 0, y0: 0, x1: 1, y1: 1 };
    const word = (texts: string[]) => {
      const symbols = texts.map((text) =>
        /^[\]|]$/.test(text)
          ? { ...symbol, text }
          : ({ text, confidence: 97, bbox: box } as Tesseract.Symbol),
      );
      return { text: texts.join(""), symbols } as Tesseract.Word;
    };
    const blocks = [
      { paragraphs: [{ lines: [{ words: words.map(word) }] }] },
    ] as unknown as Tesseract.Block[];
    return withThinLetters(blocks, straightened(drawnPage, 0));
  };

  it("respells a mark between a code's characters, at confidence 0, and leaves other marks alone", () => {
    const { blocks, respelled } = page("J", [..."v2-]64B"], [..."CBE!"], [..."a]b"]);
    expect(respelled).toEqual([{ read: "v2-]64B", spelled: "v2-J64B" }]);
    const [token, exclaimed, letters] = blocks[0]?.paragraphs[0]?.lines[0]?.words ?? [];
    expect(token?.symbols[3]).toMatchObject({ text: "J", confidence: 0 });
    // "CBE!" ends on its mark; "a]b" has no digit, so it is no code.
    expect(exclaimed?.text).toBe("CBE!");
    expect(letters?.text).toBe("a]b");
  });

  it("reads a bar as l in a mixed-case token, as I in a code of capitals", () => {
    expect(page("l", [..."v2-Dgx]Mn1"]).respelled).toEqual([{ read: "v2-Dgx]Mn1", spelled: "v2-DgxlMn1" }]);
    expect(page("I", [..."FT26083X|RMH"]).respelled).toEqual([
      { read: "FT26083X|RMH", spelled: "FT26083XIRMH" },
    ]);
  });

  it("reads a mark inside a code as J where its foot hooks left only, else as l", () => {
    const letterOf = (ch: string, family: string, blur: number) => {
      const { page, symbol } = drawn(ch, family, blur);
      return thinLetter({ ...symbol, text: "]" }, straightened(page, 0));
    };
    for (const { family, blur } of STYLES) {
      expect(letterOf("J", family, blur), `${family} ${blur}`).toBe("J");
      expect(letterOf("l", family, blur), `${family} ${blur}`).toBe("l");
      expect(letterOf("I", family, blur), `${family} ${blur}`).toBe("l");
    }
  });
});
