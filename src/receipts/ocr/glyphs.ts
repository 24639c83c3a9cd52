import type Tesseract from "tesseract.js";
import { boxKey, type GlyphChoice, type WordChoices } from "./alternatives.js";
import { byShape, caseByShape } from "./glyph-shapes.js";
import { inkHeight } from "./outline.js";
import type { PagePixels } from "./straightened.js";

/** A code as tesseract read it, and as the widths of its glyphs say it reads. */
export interface GlyphReading {
  read: string;
  glyphs: string;
}

/**
 * In a receipt's fonts digits share one width (tabular figures) while letters keep their own. Tesseract's
 * model guesses O or 0, I or 1 from context, which a code does not have; the glyph's width against the
 * confidently read digits beside it settles two cases: a "0" clearly wider than a digit is an O, and a "1"
 * that is a bare bar is an I. The converse is not safe by itself: some fonts draw O no wider than a 0, so a
 * narrow O alone proves nothing. On the rendered photo sets O stands at 1.14–1.46 digit widths (10th–90th
 * percentile), 0 at 1.00–1.17, I under 0.4 and 1 at 0.67–1.0.
 * A narrow "O" is a 0 only where the page itself shows that its font's O is wide: the O's of its names
 * and labels (pageWideO).
 */
const WIDER_THAN_A_DIGIT = 1.28;
/** Wider still is a box tesseract stretched over the gap beside it (seen: a 0 three digits wide): no measure. */
const STRETCHED = 1.8;
const A_BAR = 0.4;
/** Digits read confidently set the width; 0 and 1 are the ones in question, so they are left out. */
const MEASURING_DIGIT = /^[2-9]$/;
const SURE = 90;
/** A word holding a code: letters and digits together, at least six (a link's path, a sentence's last word). */
export const CODE = /(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9-]{6,}/;

/**
 * Every code on the page whose glyphs' widths (and, in mixed-case tokens, heights; with the page's pixels,
 * shapes: glyph-shapes.ts) read it differently.
 */
export function glyphReadings(blocks: readonly Tesseract.Block[], pixels?: PagePixels): GlyphReading[] {
  const lines = blocks.flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines));
  const pageDigits = lines.flatMap((line) => measuringDigits(line.words));
  const pageOs = lines.flatMap((line) => lettersO(line.words));
  const readings: GlyphReading[] = [];
  for (const line of lines) {
    const lineDigits = measuringDigits(line.words);
    for (const word of line.words) {
      const read = word.symbols.map((symbol) => symbol.text).join("");
      if (!CODE.test(read)) continue;
      const digit = digitWidth(lineDigits, pageDigits, word);
      if (digit === null && !pixels) continue;
      const mixedCase = /[a-z]/.test(read) && /[A-Z]/.test(read);
      // The ink's height where the page is at hand: LSTM boxes are approximate (outline.ts).
      const height = (symbol: Tesseract.Symbol) =>
        (pixels ? inkHeight(symbol, pixels) : null) ?? heightOf(symbol);
      const capital = mixedCase ? capitalHeight(word, height) : null;
      const wideO = digit === null ? null : pageWideO(pageOs, digit, word);
      const glyphs = word.symbols
        .map((symbol) => {
          const byWidths = digit === null ? symbol.text : byWidth(symbol, digit, mixedCase, wideO);
          // In a mixed-case token a serif I may as well be a small l: shapes are left to the model there,
          // but for the case of a k or a j, which their shapes show.
          const byShapes = !pixels
            ? byWidths
            : mixedCase
              ? caseByShape(byWidths, symbol, pixels)
              : byShape(byWidths, symbol, pixels);
          return byHeight(byShapes, () => height(symbol), capital);
        })
        .join("");
      if (glyphs !== read) readings.push({ read, glyphs });
    }
  }
  return readings;
}

/** A code as tesseract read it, with each glyph's confidence and the other characters it weighed there. */
export interface CodeConfidence {
  read: string;
  confidences: readonly number[];
  /** Per glyph (alternatives.ts); empty where the hOCR's glyphs do not line up with the word's. */
  choices: readonly (readonly GlyphChoice[])[];
}

/** Every code on the page (letters and digits together) with its glyphs' confidences and choices. */
export function codeConfidences(
  blocks: readonly Tesseract.Block[],
  choices: WordChoices = new Map(),
): CodeConfidence[] {
  return blocks
    .flatMap((block) =>
      block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)),
    )
    .map((word) => {
      const glyphs = choices.get(boxKey(word.bbox)) ?? [];
      return {
        read: word.symbols.map((symbol) => symbol.text).join(""),
        confidences: word.symbols.map((symbol) => symbol.confidence),
        choices: glyphs.length === word.symbols.length ? glyphs : [],
      };
    })
    .filter((code) => CODE.test(code.read));
}

interface Measured {
  width: number;
  height: number;
}

function measuringDigits(words: readonly Tesseract.Word[]): Measured[] {
  return words.flatMap((word) =>
    word.symbols
      .filter((symbol) => MEASURING_DIGIT.test(symbol.text) && symbol.confidence >= SURE)
      .map((symbol) => ({ width: widthOf(symbol), height: heightOf(symbol) })),
  );
}

/** A digit's width on the word's line, else on the page among digits as tall as the word's glyphs. */
function digitWidth(
  line: readonly Measured[],
  page: readonly Measured[],
  word: Tesseract.Word,
): number | null {
  if (line.length >= 3) return median(line.map((digit) => digit.width));
  const height = median(word.symbols.filter((symbol) => /[A-Z0-9]/.test(symbol.text)).map(heightOf));
  const alike = page.filter((digit) => Math.abs(digit.height - height) <= height * 0.15);
  return alike.length >= 3 ? median(alike.map((digit) => digit.width)) : null;
}

/**
 * The capital O's of the page's words of letters (names, labels), confidently read and as tall as the code's
 * glyphs: they show how wide this font draws an O.
 */
function lettersO(words: readonly Tesseract.Word[]): Measured[] {
  return words
    .filter((word) => /^[A-Z]{3,}$/.test(word.symbols.map((symbol) => symbol.text).join("")))
    .flatMap((word) =>
      word.symbols
        .filter((symbol) => symbol.text === "O" && symbol.confidence >= SURE)
        .map((symbol) => ({ width: widthOf(symbol), height: heightOf(symbol) })),
    );
}

/**
 * When the page's own O's are clearly wider than its digits, the width (in digits) below which an "O" in a
 * code is a 0: halfway between the two. Null when the page shows no such O, or O's no wider than a digit
 * (then a narrow O proves nothing).
 */
function pageWideO(pageOs: readonly Measured[], digit: number, word: Tesseract.Word): number | null {
  const height = median(word.symbols.filter((symbol) => /[A-Z0-9]/.test(symbol.text)).map(heightOf));
  const alike = pageOs.filter((o) => Math.abs(o.height - height) <= height * 0.15);
  if (alike.length === 0) return null;
  const ratio = median(alike.map((o) => o.width)) / digit;
  return ratio >= WIDER_THAN_A_DIGIT && ratio < STRETCHED ? (1 + ratio) / 2 : null;
}

/** Narrower than this is a box around part of a glyph, not a measure of it. */
const A_PART = 0.7;

function byWidth(symbol: Tesseract.Symbol, digit: number, mixedCase: boolean, wideO: number | null): string {
  const ratio = widthOf(symbol) / digit;
  if (symbol.text === "0" && ratio >= WIDER_THAN_A_DIGIT && ratio < STRETCHED) return "O";
  if (symbol.text === "O" && wideO !== null && ratio >= A_PART && ratio < wideO) return "0";
  // In a mixed-case token a narrow bar may be a small l as well as an I: left as read.
  if (!mixedCase && (symbol.text === "1" || symbol.text === "l") && ratio <= A_BAR) return "I";
  return symbol.text;
}

/**
 * Letters whose small and capital forms differ only in size (c, o, s, u, v, w, x, z): tesseract mixes their
 * case up in case-sensitive tokens (CBE's v2-… links), where the glyph's height against the capitals and
 * digits of the same word tells (a small one stands at x-height, about 0.7 of a capital).
 */
const SIZE_ONLY = /^[COSUVWXZcosuvwxz]$/;
const SMALL = 0.8;
const CAPITAL = 0.92;

/** The height of the word's digits and of its capitals that have no small twin of their shape. */
function capitalHeight(word: Tesseract.Word, height: (symbol: Tesseract.Symbol) => number): number | null {
  const tall = word.symbols.filter((symbol) => /^[0-9ABDEFGHJLMNQRT]$/.test(symbol.text));
  return tall.length >= 3 ? median(tall.map(height)) : null;
}

/** A digit stands as tall as a capital: a "0" at x-height is a small o. */
function byHeight(text: string, height: () => number, capital: number | null): string {
  const zero = text === "0";
  if (capital === null || !(zero || SIZE_ONLY.test(text))) return text;
  const ratio = height() / capital;
  if (zero) return ratio <= SMALL ? "o" : text;
  if (ratio <= SMALL) return text.toLowerCase();
  if (ratio >= CAPITAL) return text.toUpperCase();
  return text;
}

const widthOf = (symbol: Tesseract.Symbol) => symbol.bbox.x1 - symbol.bbox.x0;
const heightOf = (symbol: Tesseract.Symbol) => symbol.bbox.y1 - symbol.bbox.y0;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
