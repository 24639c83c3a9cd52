/**
 * Offline OCR of receipt photos and screenshots: pre-processing with @napi-rs/canvas (preprocess.ts),
 * then tesseract.js workers with the English model from node_modules (pool.ts). Nothing is fetched.
 */
import { wordChoicesOfHocr } from "./alternatives.js";
import { OcrTimeoutError } from "./errors.js";
import { type CodeConfidence, codeConfidences, type GlyphReading, glyphReadings } from "./glyphs.js";
import { DEFAULT_MAX_PIXELS } from "./image-header.js";
import { oneAtATime } from "./one-at-a-time.js";
import { OcrWorkerPool } from "./pool.js";
import { rowsText, wordsOfTsv } from "./rows.js";
import { straightened } from "./straightened.js";
import { respellText, withThinLetters } from "./thin-letters.js";

export { OcrClosedError, OcrTimeoutError, UnreadableImageError } from "./errors.js";

export interface OcrOptions {
  /**
   * Worker threads, one image at a time each. Default 1. A process reading receipts peaks at ~300 MB of
   * RSS with one worker, ~390 MB with two.
   */
  poolSize?: number;
  /** Limit per image for pre-processing plus recognition, not counting time queued. Default 20 000 ms. */
  timeoutMs?: number;
  /** Larger images are refused from their header, before decoding. Default 40 megapixels. */
  maxPixels?: number;
}

/** What OCR read on an image. */
export interface OcrReading {
  /** The text row by row (rows.ts): a label beside its value, as on the receipt. */
  text: string;
  /** Words tesseract was unsure of (confidence below DOUBTFUL_CONFIDENCE), as they appear in `text`. */
  doubtful: readonly string[];
  /** Codes whose glyph widths read an O, 0 or I differently from the text (glyphs.ts). */
  glyphs: readonly GlyphReading[];
  /**
   * Every code with its glyphs' confidences and the other characters tesseract weighed for them: where a
   * misread reference most likely went wrong, and what it more likely says.
   */
  codes: readonly CodeConfidence[];
}

/**
 * Below this word confidence a value is not presented as the receipt's: tesseract's usual cut-off, a guard
 * rather than a tuned figure. On the rendered photo set (test/fixtures/photos) no threshold from 40 to 80
 * changed an amount: its misread amounts were read confidently.
 */
export const DOUBTFUL_CONFIDENCE = 60;

export interface OcrEngine {
  /** What a PNG, JPEG or WEBP image says. Rejects with UnreadableImageError or OcrTimeoutError. */
  recognize(image: Uint8Array): Promise<OcrReading>;
  /** Terminates the workers; pending and later recognize() calls reject with OcrClosedError. */
  close(): Promise<void>;
}

export function createOcrEngine(options: OcrOptions = {}): OcrEngine {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const pool = new OcrWorkerPool({ size: options.poolSize ?? 1 });
  const serially = oneAtATime();
  // The image library (~18 MB of native code and memory) loads with the first image, not at start.
  let preprocess: Promise<typeof import("./preprocess.js")> | undefined;
  const prepareForOcr = async (image: Uint8Array) => {
    preprocess ??= import("./preprocess.js");
    return (await preprocess).preparePage(image, { maxPixels });
  };
  return {
    async recognize(image) {
      const { started, prepared } = await serially(async () => ({
        started: performance.now(),
        prepared: await prepareForOcr(image),
      }));
      // Pre-processing runs on this thread and cannot be interrupted, but it counts against the limit.
      const remaining = timeoutMs - (performance.now() - started);
      if (remaining <= 0) throw new OcrTimeoutError();
      const page = await pool.recognize(prepared.png, remaining);
      const words = wordsOfTsv(page.tsv);
      const pixels = straightened(prepared.page, page.rotateRadians);
      const thin = withThinLetters(page.blocks, pixels);
      const spell = (text: string) => respellText(text, thin.respelled);
      return {
        text: spell(words.length > 0 ? rowsText(words) : page.text),
        doubtful: words
          .filter((word) => word.confidence < DOUBTFUL_CONFIDENCE)
          .map((word) => spell(word.text)),
        glyphs: glyphReadings(thin.blocks, pixels),
        codes: codeConfidences(thin.blocks, wordChoicesOfHocr(page.hocr)),
      };
    },
    close: () => pool.close(),
  };
}
