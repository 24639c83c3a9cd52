import type Tesseract from "tesseract.js";
import type { PagePixels } from "./straightened.js";

/**
 * A glyph as a black-and-white shape: its box sampled four times finer than the page (receipt photos draw
 * a reference 12–27 px tall, where one pixel is most of a stroke) and cut halfway between its darkest and
 * lightest grey. The boxes of tesseract's LSTM model are approximate, off by up to half a glyph on a
 * highlighted or blurred page: the box is searched half its width either side, and the piece of ink nearest
 * its centre, of a glyph's height, is the glyph (a neighbour's edge or a fleck is dropped).
 */
export interface Outline {
  ink: Uint8Array;
  width: number;
  height: number;
}

const FINER = 4;
/** A piece of ink this much of the tallest piece's height or more is a glyph; less is a fleck or a hyphen. */
const GLYPH_HEIGHT = 0.7;
/** The widest glyphs (W, M) are about 1.3 times as wide as tall. */
const STRETCHED = 2;
/** Pages are prepared at most 2000 px wide (preprocess.ts), where a reference's glyphs stand 12–60 px tall. */
const TALLEST_GLYPH = 150;

export function outlineOf(symbol: Tesseract.Symbol, pixels: PagePixels): Outline {
  const box = { width: symbol.bbox.x1 - symbol.bbox.x0, height: symbol.bbox.y1 - symbol.bbox.y0 };
  // A box far wider than tall spans several glyphs (tesseract stretched it over a gap), and one taller than
  // any code's glyph on a prepared page is not one: nothing to judge.
  if (box.width > STRETCHED * box.height || box.height > TALLEST_GLYPH) {
    return { ink: new Uint8Array(0), width: 0, height: 0 };
  }
  const spread = Math.ceil(box.width / 2);
  const x0 = symbol.bbox.x0 - 1 - spread;
  const y0 = symbol.bbox.y0 - 1;
  const width = (box.width + 2 + 2 * spread) * FINER;
  const height = (box.height + 2) * FINER;
  const grey = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) grey[y * width + x] = pixels(x0 + x / FINER, y0 + y / FINER);
  }
  const [darkest, lightest] = extent(grey);
  const cut = (darkest + lightest) / 2;
  const pieces = regions(width, height, (at) => (grey[at] ?? 255) < cut);
  const [, tallest] = extent(pieces.map((piece) => rowsOf(piece, width)));
  const offCentre = (piece: Region) =>
    Math.abs(piece.cells.reduce((sum, at) => sum + (at % width), 0) / piece.cells.length - width / 2);
  const glyph = pieces
    .filter((piece) => rowsOf(piece, width) >= tallest * GLYPH_HEIGHT)
    .reduce<Region | undefined>((a, b) => (a && offCentre(a) <= offCentre(b) ? a : b), undefined);
  if (!glyph) return { ink: new Uint8Array(0), width: 0, height: 0 };
  const [left, right] = extent(glyph.cells.map((at) => at % width));
  const [top, bottom] = extent(glyph.cells.map((at) => Math.floor(at / width)));
  const outline = { width: right - left + 1, height: bottom - top + 1 };
  const ink = new Uint8Array(outline.width * outline.height);
  for (const at of glyph.cells) ink[(Math.floor(at / width) - top) * outline.width + (at % width) - left] = 1;
  return { ink, ...outline };
}

/** The height of a glyph's ink in page pixels, or null where its box holds no one glyph. */
export function inkHeight(symbol: Tesseract.Symbol, pixels: PagePixels): number | null {
  const { height } = outlineOf(symbol, pixels);
  return height > 0 ? height / FINER : null;
}

/**
 * A 5 drawn like an S has a square top-left corner: its stem runs straight down from the top bar. An S's
 * top curves in from the left, which an S's left edge shows as an indent at the top and a curve below.
 * Measured on the photo sets (left edge as a share of the width): a 5 read as S has no indent at the top
 * and its left edge within a tenth of its leftmost through ≥ 95 % of the top 45 % of rows; real S's have an
 * indent of ≥ 0.02 or a straight share ≤ 0.90.
 */
const STRAIGHT_SHARE = 0.93;
const STRAIGHT_WITHIN = 0.1;

export function hasFlatTopCorner(outline: Outline): boolean {
  const { width, height } = outline;
  if (width < 4 || height < 8) return false;
  const leftEdge = (y: number) => {
    for (let x = 0; x < width; x++) if (outline.ink[y * width + x]) return x / width;
    return 1;
  };
  const rows = (from: number, to: number) =>
    Array.from(
      { length: Math.max(1, Math.round(height * (to - from))) },
      (_, k) => Math.round(height * from) + k,
    );
  const top = Math.min(...rows(0, 0.12).map(leftEdge));
  const upper = rows(0, 0.45).map(leftEdge);
  const leftmost = Math.min(...upper);
  const straight = upper.filter((x) => x <= leftmost + STRAIGHT_WITHIN).length / upper.length;
  return top <= leftmost && straight >= STRAIGHT_SHARE;
}

/**
 * An O or 0 has one hole about halfway down; a 9 whose tail blurred into its bowl keeps its hole high, a 6
 * low. On the photo sets a hole's centre stands at 0.47–0.52 of the height in O, 0 and D, 0.39–0.44 in Q,
 * 0.29–0.33 in 9 and 0.64–0.69 in 6.
 */
const HIGH_HOLE = 0.37;
const LOW_HOLE = 0.6;

export function byHole(text: string, outline: Outline): string {
  const holes = regions(outline.width, outline.height, (at) => !outline.ink[at]).filter(
    (hole) => hole.enclosed,
  );
  const [hole] = holes;
  if (holes.length !== 1 || !hole) return text;
  const centre = hole.cells.reduce((sum, at) => sum + Math.floor(at / outline.width), 0) / hole.cells.length;
  const share = (centre + 0.5) / outline.height;
  if (share <= HIGH_HOLE) return "9";
  if (share >= LOW_HOLE) return "6";
  return text;
}

interface Region {
  cells: number[];
  /** Whether it stays clear of the box's edge. */
  enclosed: boolean;
}

/** The 4-connected regions of the cells for which `member` holds. */
export function regions(width: number, height: number, member: (at: number) => boolean): Region[] {
  const seen = new Uint8Array(width * height);
  const found: Region[] = [];
  for (let start = 0; start < seen.length; start++) {
    if (seen[start] || !member(start)) continue;
    seen[start] = 1;
    const region: Region = { cells: [], enclosed: true };
    for (const stack = [start]; stack.length > 0; ) {
      const at = stack.pop() ?? 0;
      region.cells.push(at);
      const [x, y] = [at % width, Math.floor(at / width)];
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) region.enclosed = false;
      for (const next of [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width]) {
        if (next < 0 || next >= seen.length || seen[next] || !member(next)) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
    found.push(region);
  }
  return found;
}

function rowsOf(piece: Region, width: number): number {
  const [top, bottom] = extent(piece.cells.map((at) => Math.floor(at / width)));
  return bottom - top + 1;
}

/** The least and the greatest value, by a loop: a large box holds too many for Math.min(...values). */
function extent(values: ArrayLike<number>): [number, number] {
  let [least, greatest] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? 0;
    if (value < least) least = value;
    if (value > greatest) greatest = value;
  }
  return [least, greatest];
}
