/**
 * Turns an uploaded receipt image into what tesseract reads best: decoded (PNG, JPEG, WEBP; EXIF rotation
 * applied by the decoder), cropped to the page when a photo shows it lying on something (paper.ts), resized,
 * greyscale, a dark-mode screenshot inverted, illumination flattened, handed over as a greyscale PNG.
 *
 * Flattening is the step that matters: greyscale and resizing alone read no more receipts than the upload as
 * is (docs/performance.md). No blur, contrast stretch or binarisation (ours or tesseract's Sauvola): they
 * help nothing or read less, since the LSTM reads anti-aliased grey better than hard black and white.
 */
import { createCanvas, type Image, loadImage } from "@napi-rs/canvas";
import { UnreadableImageError } from "./errors.js";
import { readImageHeader } from "./image-header.js";
import { findPaper, type Region } from "./paper.js";
import { encodeGreyPng } from "./png.js";
import type { GreyImage } from "./straightened.js";

export async function prepareForOcr(bytes: Uint8Array, options: { maxPixels: number }): Promise<Buffer> {
  return (await preparePage(bytes, options)).png;
}

/** The image prepared for tesseract (`png`), and its pixels for looking at glyphs after (glyph-shapes.ts). */
export interface PreparedPage {
  png: Buffer;
  page: GreyImage;
}

export async function preparePage(bytes: Uint8Array, options: { maxPixels: number }): Promise<PreparedPage> {
  const image = await decode(bytes, options.maxPixels);
  const whole = { left: 0, top: 0, width: image.width, height: image.height };
  const size = targetSize(whole.width, whole.height);
  const grey = greyOf(image, whole, size);
  // A photo of a white page on a dark table is mostly dark pixels as well: a light page is looked for
  // first, in the image as it is.
  const page = pageOf(image, grey, size);
  let prepared = page && !mostlyDark(page.grey) ? page : null;
  if (!prepared && mostlyDark(grey)) {
    // A dark-mode screenshot: light text on a dark page. Flattening and tesseract both want dark on light.
    invert(grey);
    prepared = pageOf(image, grey, size);
    if (prepared) invert(prepared.grey);
    else prepared = { grey, size };
  }
  prepared ??= page ?? { grey, size };
  const { width, height } = prepared.size;
  flattenIllumination(prepared.grey, width, height);
  return { png: encodeGreyPng(prepared.grey, width, height), page: { grey: prepared.grey, width, height } };
}

interface Prepared {
  grey: Uint8ClampedArray;
  size: { width: number; height: number };
}

/** A photo of a page lying on something: the page alone, enlarged like a small image. */
function pageOf(image: Image, grey: Uint8ClampedArray, size: Prepared["size"]): Prepared | null {
  const paper = findPaper(grey, size.width, size.height);
  if (!paper) return null;
  const toSource = image.width / size.width;
  const region = {
    left: paper.left * toSource,
    top: paper.top * toSource,
    width: paper.width * toSource,
    height: paper.height * toSource,
  };
  const pageSize = pageTargetSize(region.width, region.height);
  return { grey: greyOf(image, region, pageSize), size: pageSize };
}

/** The region of the image drawn at `size`, in greyscale. */
function greyOf(image: Image, region: Region, size: { width: number; height: number }): Uint8ClampedArray {
  const canvas = createCanvas(size.width, size.height);
  const ctx = canvas.getContext("2d");
  // Smooth resampling when shrinking also averages away sensor noise and JPEG blocks.
  ctx.imageSmoothingQuality = "high";
  // Transparent screenshots would turn black in greyscale: paper-white underneath.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.drawImage(image, region.left, region.top, region.width, region.height, 0, 0, size.width, size.height);
  return toGrey(ctx.getImageData(0, 0, size.width, size.height).data);
}

/** Decodes PNG, JPEG or WEBP after checking the header's claimed size. */
async function decode(bytes: Uint8Array, maxPixels: number): Promise<Image> {
  const header = readImageHeader(bytes);
  if (!header) throw new UnreadableImageError();
  if (header.width * header.height > maxPixels) throw new UnreadableImageError("The image is too large.");
  let image: Image;
  try {
    image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw new UnreadableImageError(undefined, { cause: error });
  }
  // The decoder applies EXIF orientation, so width and height may be swapped; the area is the same.
  if (!image.width || !image.height || image.width * image.height > maxPixels)
    throw new UnreadableImageError();
  return image;
}

/**
 * Phone photos (3000–4000 px) are shrunk to this longest side: they read as well as at 3000 px, with
 * pre-processing in about half the time.
 */
const MAX_SIDE = 2000;
/**
 * Narrow images (13 px text at 432 px wide) are enlarged, ×1.5 reading more of them than ×1 or ×2.
 * Telegram's screenshots (~590 px wide, ~20 px text) are not: enlarging them costs 30% more time for no
 * better reading (docs/performance.md).
 */
const SMALL_WIDTH = 500;
const SMALL_SCALE = 1.5;

/**
 * A page cropped from a photo is enlarged to at least this width: a receipt photographed whole and sent at
 * Telegram's 1280 px is a page 600–900 px wide with text under 12 px high. On the photo set, 1200 px reads
 * the most references and amounts exactly; wider is no better and slower (docs/performance.md).
 */
const PAGE_WIDTH = 1200;

function pageTargetSize(width: number, height: number): { width: number; height: number } {
  const size = targetSize(width, height);
  if (size.width >= PAGE_WIDTH) return size;
  return { width: PAGE_WIDTH, height: Math.round((size.height * PAGE_WIDTH) / size.width) };
}

function targetSize(width: number, height: number): { width: number; height: number } {
  const longest = Math.max(width, height);
  const scale = longest > MAX_SIDE ? MAX_SIDE / longest : width < SMALL_WIDTH ? SMALL_SCALE : 1;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Whether most of the image is darker than mid-grey (sampled: every 7th pixel is plenty). */
function mostlyDark(grey: Uint8ClampedArray): boolean {
  let dark = 0;
  let seen = 0;
  for (let i = 0; i < grey.length; i += 7, seen++) if ((grey[i] ?? 0) < 110) dark++;
  return dark > seen / 2;
}

function invert(grey: Uint8ClampedArray): void {
  for (let i = 0; i < grey.length; i++) grey[i] = 255 - (grey[i] ?? 0);
}

/** Rec. 601 luma in integer arithmetic. */
function toGrey(rgba: Uint8ClampedArray): Uint8ClampedArray {
  const grey = new Uint8ClampedArray(rgba.length / 4);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
    grey[j] = ((rgba[i] ?? 0) * 77 + (rgba[i + 1] ?? 0) * 150 + (rgba[i + 2] ?? 0) * 29) >> 8;
  }
  return grey;
}

/** Side of the blocks whose brightest pixel stands for the paper: wider than a text stroke. */
const BLOCK = 16;

/**
 * The step that makes photos readable. Divides every pixel by the local paper brightness, so a shadow or a lamp's falloff becomes white paper
 * again and ink keeps its contrast. The paper's brightness is the maximum of each block, smoothed twice
 * over its neighbours (one dark block inside a letter would otherwise leave a grey blotch), and
 * interpolated bilinearly between block centres.
 */
function flattenIllumination(grey: Uint8ClampedArray, width: number, height: number): void {
  const cols = Math.ceil(width / BLOCK);
  const rows = Math.ceil(height / BLOCK);
  const maxima = new Float32Array(cols * rows);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / BLOCK) * cols;
    for (let x = 0; x < width; x++) {
      const k = row + Math.floor(x / BLOCK);
      const v = grey[y * width + x] ?? 0;
      if (v > (maxima[k] ?? 0)) maxima[k] = v;
    }
  }
  const paper = smooth(smooth(maxima, cols, rows), cols, rows);
  for (let y = 0; y < height; y++) {
    const fy = clamp(y / BLOCK - 0.5, 0, rows - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(rows - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = clamp(x / BLOCK - 0.5, 0, cols - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(cols - 1, x0 + 1);
      const wx = fx - x0;
      const top = (paper[y0 * cols + x0] ?? 0) * (1 - wx) + (paper[y0 * cols + x1] ?? 0) * wx;
      const bottom = (paper[y1 * cols + x0] ?? 0) * (1 - wx) + (paper[y1 * cols + x1] ?? 0) * wx;
      const background = top * (1 - wy) + bottom * wy;
      const i = y * width + x;
      grey[i] = background > 0 ? ((grey[i] ?? 0) * 255) / background : 255;
    }
  }
}

/** 3×3 mean of a grid (edges average what they have). */
function smooth(grid: Float32Array, cols: number, rows: number): Float32Array {
  const out = new Float32Array(grid.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy < 0 || yy >= rows || xx < 0 || xx >= cols) continue;
          sum += grid[yy * cols + xx] ?? 0;
          n += 1;
        }
      }
      out[y * cols + x] = sum / n;
    }
  }
  return out;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
