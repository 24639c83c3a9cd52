import type Tesseract from "tesseract.js";
import { byHole, hasFlatTopCorner, inkHeight, outlineOf, regions } from "./outline.js";
import type { PagePixels } from "./straightened.js";

/**
 * Two look-alikes that neither the widths (glyphs.ts) nor the model tell apart, settled by the glyph's
 * shape on the page:
 * - an S with two closed counters is an 8: blur softens an 8's waist into an S-like stroke, but the two
 *   holes stay. On the photo sets no S read as S had two.
 * - a 1 with serifs standing alike on both sides at its top and at its foot is a serif I: a 1's flag leans
 *   left at the top only. Measured as (left − right) / (left + right) ink beside the stem, top quarter
 *   against bottom quarter: serif I's read as 1 differ by 0.08 at most, and 1's with ink on all four sides
 *   by 0.31 or more (SAME_BALANCE lies between).
 * - an S whose left edge runs straight down from its top corner is a 5 (outline.ts).
 * - an O or 0 whose one hole sits high is a 9, low a 6 (outline.ts).
 */
export function byShape(text: string, symbol: Tesseract.Symbol, pixels: PagePixels): string {
  if (text === "S" && counters(glyphOf(symbol, pixels)) >= 2) return "8";
  if (text === "S" && hasFlatTopCorner(outlineOf(symbol, pixels))) return "5";
  if (text === "O" || text === "0") return byHole(text, outlineOf(symbol, pixels));
  if (text === "1" && isSerifI(glyphOf(symbol, pixels))) return "I";
  return text;
}

/**
 * The thin letter that a mark OCR read inside a code stands for (thin-letters.ts): a J when its foot hooks
 * to the left only, else an l (a bare bar, or a serif foot on both sides). On the link-token photos, J's read
 * as "]", "}" or "|" had 107–152 fine pixels of foot left of the stem and none right of it; serif l's read as
 * "]" or "|" had 33–41 on each side.
 */
export function thinLetter(symbol: Tesseract.Symbol, pixels: PagePixels): "J" | "l" {
  const outline = outlineOf(symbol, pixels);
  if (outline.width === 0) return "l";
  const foot = besideStem(outline).foot;
  // A hook is a stroke, not a grey speck: at least half the glyph's height in fine pixels.
  return foot.left >= outline.height / 2 && foot.right <= foot.left / 4 ? "J" : "l";
}

/**
 * The case of a k or a j in a case-sensitive token (CBE's v2-… links), which tesseract mixes up. Measured on
 * the link-token photos:
 * - a K's upper arm reaches the top right of the glyph, a k's starts at x-height: ink right of the stem in
 *   the top quarter, per fine row of the glyph's height, 2.6–7.3 for K and 0–0.07 for k;
 * - a J's stroke starts at the top of its box, a j's at x-height under its dot: the stroke stands 0.96–0.98
 *   of the box's height in J and 0.72–0.80 in j.
 */
export function caseByShape(text: string, symbol: Tesseract.Symbol, pixels: PagePixels): string {
  if (/^[kK]$/.test(text)) {
    const outline = outlineOf(symbol, pixels);
    if (outline.width === 0) return text;
    return besideStem(outline).top.right / outline.height >= K_ARM ? "K" : "k";
  }
  if (/^[jJ]$/.test(text)) {
    const stroke = inkHeight(symbol, pixels);
    if (stroke === null) return text;
    return stroke / (symbol.bbox.y1 - symbol.bbox.y0) >= J_STROKE ? "J" : "j";
  }
  return text;
}

const K_ARM = 1;
const J_STROKE = 0.88;

/** How much the serifs' balance may differ between top and foot and still be an I. */
const SAME_BALANCE = 0.15;
/** A serif, in ink pixels, is at least this share of the glyph's height (a stray grey pixel is not). */
const SERIF = 1 / 20;
/** A stem column holds at least this share of the darkest column's ink. */
const STEM = 0.6;

interface Glyph {
  /** Ink per pixel, 0 (paper) to 1 (black), row by row. */
  ink: Float64Array;
  width: number;
  height: number;
}

function glyphOf(symbol: Tesseract.Symbol, pixels: PagePixels): Glyph {
  const { x0, y0, x1, y1 } = symbol.bbox;
  const width = Math.max(1, x1 - x0);
  const height = Math.max(1, y1 - y0);
  const ink = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) ink[y * width + x] = (255 - pixels(x0 + x, y0 + y)) / 255;
  }
  return { ink, width, height };
}

/** Regions of paper inside the glyph that do not reach its box's edge, the glyph cut halfway in grey. */
function counters({ ink, width, height }: Glyph): number {
  let darkest = 0;
  let lightest = 1;
  for (const value of ink) {
    darkest = Math.max(darkest, value);
    lightest = Math.min(lightest, value);
  }
  const cut = (darkest + lightest) / 2;
  return regions(width, height, (at) => (ink[at] ?? 1) <= cut).filter((paper) => paper.enclosed).length;
}

function isSerifI(glyph: Glyph): boolean {
  const { top, foot } = besideStem(glyph);
  const serif = glyph.height * SERIF;
  if (Math.min(top.left, top.right, foot.left, foot.right) < serif) return false;
  const topInk = top.left + top.right;
  const footInk = foot.left + foot.right;
  // A T read as 1 has its bar at the top and no foot.
  if (topInk > footInk * 2 || footInk > topInk * 2) return false;
  const balance = (side: Beside) => (side.left - side.right) / (side.left + side.right);
  return Math.abs(balance(top) - balance(foot)) <= SAME_BALANCE;
}

interface Beside {
  left: number;
  right: number;
}

/**
 * The ink left and right of a glyph's stem (the columns holding at least STEM of the darkest column's ink),
 * in its top and bottom quarters: where serifs, flags and hooks stand.
 */
function besideStem({ ink, width, height }: { ink: ArrayLike<number>; width: number; height: number }): {
  top: Beside;
  foot: Beside;
} {
  const columns = Array.from({ length: width }, (_, x) => {
    let sum = 0;
    for (let y = 0; y < height; y++) sum += ink[y * width + x] ?? 0;
    return sum;
  });
  const strongest = Math.max(...columns);
  const stem = columns.flatMap((sum, x) => (sum >= strongest * STEM ? [x] : []));
  const stemLeft = stem[0] ?? 0;
  const stemRight = stem.at(-1) ?? width - 1;
  const band = Math.max(1, Math.round(height / 4));
  const beside = (fromRow: number): Beside => {
    let left = 0;
    let right = 0;
    for (let y = fromRow; y < fromRow + band; y++) {
      for (let x = 0; x < stemLeft; x++) left += ink[y * width + x] ?? 0;
      for (let x = stemRight + 1; x < width; x++) right += ink[y * width + x] ?? 0;
    }
    return { left, right };
  };
  return { top: beside(0), foot: beside(height - band) };
}
