import { spawn } from "node:child_process";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { beforeAll, describe, expect, it } from "vitest";
import {
  PHOTO_DEGRADATION,
  photoOf,
  RECEIPT_SAMPLES,
  type ReceiptSample,
  type RenderOptions,
  renderReceiptImage,
} from "../../fakes/receipt-images.js";
import { repairReference } from "../../src/reading/text.js";
import { readImageHeader } from "../../src/receipts/ocr/image-header.js";
import {
  createOcrEngine,
  OcrClosedError,
  type OcrEngine,
  OcrTimeoutError,
  UnreadableImageError,
} from "../../src/receipts/ocr/index.js";
import { OcrWorkerPool } from "../../src/receipts/ocr/pool.js";
import { prepareForOcr } from "../../src/receipts/ocr/preprocess.js";
import { sharedOcrEngine, TEST_OCR_TIMEOUT_MS } from "../support/ocr.js";
import { WAIT_MS, within } from "../support/wait.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Drawing = [lines: string[], options: RenderOptions];
const asSent = (sample: ReceiptSample): Drawing => [sample.lines, sample.layout];
const photographed = (sample: ReceiptSample): Drawing => [sample.lines, photoOf(sample)];
// Without flattening the illumination, tesseract's global threshold loses the shadowed values.
const UNEVEN_LIGHT = RECEIPT_SAMPLES.filter((s) => s.bank === "cbe" || s.bank === "dashen");
const inUnevenLight = (sample: ReceiptSample): Drawing => [
  sample.lines,
  photoOf(sample, { ...PHOTO_DEGRADATION, rotateDeg: -3, shadow: 0.5 }),
];
const CBE = RECEIPT_SAMPLES[0] as ReceiptSample;
const WHOLE_A4: Drawing = [
  CBE.lines,
  { ...photoOf(CBE), width: 3024, minHeight: 4032, fontSize: 67, blurPx: 2.5 },
];
const ONE_LINE: Drawing = [["Amount\t1.00 ETB"], { width: 720 }];

/**
 * Every image this file reads, drawn one at a time before any is read: drawing beside the engine's own
 * image work would overlap native canvas work (src/receipts/ocr/one-at-a-time.ts), the suspect when a test
 * worker running this file ended without a trace. On a second run they come from the drawing cache.
 */
const drawings = new Map<string, Buffer>();
beforeAll(async () => {
  for (const drawing of [
    ...RECEIPT_SAMPLES.map(asSent),
    ...RECEIPT_SAMPLES.map(photographed),
    ...UNEVEN_LIGHT.map(inUnevenLight),
    WHOLE_A4,
    ONE_LINE,
  ]) {
    drawings.set(JSON.stringify(drawing), await renderReceiptImage(...drawing));
  }
});

function drawn([lines, options]: Drawing): Buffer {
  const image = drawings.get(JSON.stringify([lines, options]));
  if (!image) throw new Error(`not drawn before the tests: ${lines[0]}`);
  return image;
}

/**
 * Whether the OCR text holds the reference: a word (or two or three words, OCR splits long ones) that
 * repairReference turns into it. That repairs look-alikes only where the shape wants a digit or a letter,
 * as the receipt parsers do; nothing more lenient.
 */
function holdsReference(text: string, sample: ReceiptSample): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) {
      if (repairReference(words.slice(i, i + n).join(""), sample.referenceShape) === sample.reference)
        return true;
    }
  }
  return false;
}

function expectReceipt(reading: { text: string }, sample: ReceiptSample): void {
  const { text } = reading;
  expect(holdsReference(text, sample), `reference ${sample.reference} in:\n${text}`).toBe(true);
  expect(text, "amount").toContain(sample.amount);
}

/** A PNG that is only a signature and an IHDR chunk claiming width × height: no pixels to decode. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

describe("image header", () => {
  it.each(["png", "jpeg", "webp"] as const)("reads the size of a %s without decoding it", async (format) => {
    const canvas = createCanvas(321, 123);
    canvas.getContext("2d").fillRect(0, 0, 10, 10);
    const bytes = format === "png" ? await canvas.encode("png") : await canvas.encode(format, 80);
    expect(readImageHeader(bytes)).toEqual({ format, width: 321, height: 123 });
  });

  it("knows nothing about other bytes", () => {
    expect(readImageHeader(Buffer.from("%PDF-1.7\n"))).toBeNull();
    expect(readImageHeader(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(readImageHeader(new Uint8Array(0))).toBeNull();
    expect(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
  });
});

describe("OCR engine", () => {
  let engine: OcrEngine;
  beforeAll(() => {
    // Two workers for two cores (the test process's engine, test/support/ocr.ts): the samples below run two
    // at a time.
    engine = sharedOcrEngine();
  });

  describe.concurrent("reads each bank's receipt", () => {
    it.each(RECEIPT_SAMPLES)("$bank as sent", async (sample) => {
      expectReceipt(await engine.recognize(drawn(asSent(sample))), sample);
    });

    it.each(RECEIPT_SAMPLES)("$bank photographed (2° tilt, 1 px blur, noise, JPEG q50)", async (sample) => {
      expectReceipt(await engine.recognize(drawn(photographed(sample))), sample);
    });

    it.each(UNEVEN_LIGHT)("$bank photographed 3° off in uneven light", async (sample) => {
      expectReceipt(await engine.recognize(drawn(inUnevenLight(sample))), sample);
    });
  });

  it("reads a 12-megapixel phone photo of a whole A4 page (downscaled first)", async () => {
    expectReceipt(await engine.recognize(drawn(WHOLE_A4)), CBE);
  });

  it("rejects bytes that are not an image", async () => {
    const error = await engine.recognize(Buffer.from("not an image at all")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableImageError);
    expect((error as Error).message).toBe("The image could not be read.");
    await expect(engine.recognize(Buffer.from("%PDF-1.7\n1 0 obj"))).rejects.toBeInstanceOf(
      UnreadableImageError,
    );
  });

  it("rejects an image whose header claims 50 megapixels before decoding it", async () => {
    // Had it been decoded, the missing pixel data would have said "could not be read" instead.
    await expect(prepareForOcr(pngHeaderOnly(10_000, 5_000), { maxPixels: 40_000_000 })).rejects.toThrow(
      new UnreadableImageError("The image is too large."),
    );
    await expect(engine.recognize(pngHeaderOnly(10_000, 5_000))).rejects.toThrow("The image is too large.");
  });

  it("honours maxPixels", async () => {
    const small = createOcrEngine({ maxPixels: 100_000 });
    await expect(small.recognize(drawn(ONE_LINE))).rejects.toThrow("The image is too large.");
    await small.close();
  });
});

describe("OCR worker pool", () => {
  it("times out a recognition, replaces its worker and keeps serving", async () => {
    const sample = RECEIPT_SAMPLES[1] as ReceiptSample;
    const image = await prepareForOcr(drawn(asSent(sample)), { maxPixels: 40_000_000 });
    const pool = new OcrWorkerPool({ size: 1 });
    try {
      await expect(pool.recognize(image, 5)).rejects.toBeInstanceOf(OcrTimeoutError);
      expectReceipt(await pool.recognize(image, TEST_OCR_TIMEOUT_MS), sample);
    } finally {
      await pool.close();
    }
  });

  it("queues jobs beyond its size and answers each with its own text", async () => {
    const pool = new OcrWorkerPool({ size: 1 });
    try {
      const samples = RECEIPT_SAMPLES.slice(1, 4);
      const images: Buffer[] = [];
      for (const s of samples) images.push(await prepareForOcr(drawn(asSent(s)), { maxPixels: 4e7 }));
      const texts = await Promise.all(images.map((image) => pool.recognize(image, TEST_OCR_TIMEOUT_MS)));
      texts.forEach((text, i) => {
        expectReceipt(text, samples[i] as ReceiptSample);
      });
    } finally {
      await pool.close();
    }
  });

  it("close() ends a running job at once instead of leaving it pending", async () => {
    const pool = new OcrWorkerPool({ size: 1 });
    const image = await prepareForOcr(drawn(asSent(CBE)), { maxPixels: 4e7 });
    const running = pool.recognize(image, TEST_OCR_TIMEOUT_MS);
    await pool.close();
    await expect(running).rejects.toBeInstanceOf(OcrClosedError);
  });

  it("rejects work after close", async () => {
    const pool = new OcrWorkerPool({ size: 1 });
    await pool.close();
    await expect(pool.recognize(Buffer.alloc(0), 1000)).rejects.toBeInstanceOf(OcrClosedError);
  });
});

describe("OCR engine limits", () => {
  it("rejects with OcrTimeoutError when the limit is tiny", async () => {
    const engine = createOcrEngine({ timeoutMs: 1 });
    await expect(engine.recognize(drawn(asSent(CBE)))).rejects.toBeInstanceOf(OcrTimeoutError);
    await engine.close();
  });

  it("close() ends the workers: a process that used the engine exits by itself", {
    timeout: 180_000,
  }, async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/ocr/close-exits.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    // A worker thread left alive would keep the child from ever exiting: the generous bound only tells
    // that apart from a child slowed by a loaded machine (it starts tsx and reads a receipt).
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const code = await within(exited, "the child's exit after close()", 4 * WAIT_MS).finally(() =>
      child.kill("SIGKILL"),
    );
    expect(code).toBe(0);
    expect(stdout).toContain("DGS2BT1W54");
  });
});
