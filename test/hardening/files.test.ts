import { once } from "node:events";
import { constants, crc32, createDeflate, deflateSync } from "node:zlib";
import PDFDocument from "pdfkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderReceiptImage } from "../../fakes/receipt-images.js";
import { MAX_PDF_DECODED_BYTES } from "../../src/pdf/guard.js";
import type { OcrEngine } from "../../src/receipts/ocr/index.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { sharedOcrEngine } from "../support/ocr.js";
import { type Simulator, startBanks } from "../support/simulator.js";
import { leftoverUploads, postMultipart } from "../support/uploads.js";

/*
 * Hostile receipt files: compression bombs in PDFs and images, a picture over the OCR's pixel limit,
 * truncated and polyglot files. Each must get a clear 422 naming the file, with the test process's memory
 * (where the API, pdf.js and the OCR workers run) bounded.
 */

const MAX_RSS_GROWTH = 300 * 1024 * 1024;

let api: TestApi;
let sim: Simulator;
let ocr: OcrEngine;
let tenant: Tenant;

beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  ocr = sharedOcrEngine();
  api = await startTestApi({ banks: started.banks, ocr });
  tenant = await createTenant(api.db, { quota: 100 });
  // First use loads pdf.js and starts the OCR worker: not part of any one file's cost.
  await send(await textPdf("warm-up"), "warm-up.pdf");
  await send(await renderReceiptImage(["warm-up"], { width: 300 }), "warm-up.png");
});
afterAll(async () => {
  await api?.close();
  await sim?.close();
});
afterEach(async () => {
  expect(await leftoverUploads(), "temporary upload files are removed").toEqual([]);
});

function send(bytes: Uint8Array, name: string) {
  return postMultipart(api.url, "/verify", {
    key: tenant.key,
    files: [{ field: "receipt_file", bytes, name, type: "application/octet-stream" }],
  });
}

interface Measured {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  body: any;
  ms: number;
  rssGrowth: number;
}

/** Sends one file and watches the process's RSS every few milliseconds while the request runs. */
async function measured(bytes: Uint8Array, name: string): Promise<Measured> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  try {
    const response = await send(bytes, name);
    peak = Math.max(peak, process.memoryUsage().rss);
    // The process's lifetime high-water mark also catches a peak between two samples (while the event
    // loop is busy); it can only overstate this request's growth, never understate it.
    const highWater = process.resourceUsage().maxRSS * 1024;
    return { ...response, ms: performance.now() - started, rssGrowth: Math.max(peak, highWater) - before };
  } finally {
    clearInterval(sampler);
  }
}

function expectClear422(result: Measured, field = "receipt_file", message?: RegExp): void {
  const where = `${JSON.stringify(result.body)} in ${Math.round(result.ms)} ms, +${Math.round(result.rssGrowth / 1e6)} MB`;
  console.info(`files: ${where}`);
  expect(result.status, where).toBe(422);
  expect(Object.keys(result.body).sort()).toEqual(["errors", "message"]);
  expect(result.body.message).toBe("The given data was invalid.");
  expect(Object.keys(result.body.errors), where).toEqual([field]);
  if (message) expect(result.body.errors[field][0], where).toMatch(message);
  // The time is reported above (the bench's figure); a file that is not refused in time still fails the
  // test's own timeout, and one that is decoded anyway shows in memory.
  expect(result.rssGrowth, where).toBeLessThan(MAX_RSS_GROWTH);
}

// --- file builders ---

/** A PDF from object bodies (numbered from 1, the first the catalog) with a correct cross-reference table. */
function pdfOf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === "string" ? Buffer.from(body, "latin1") : body,
      Buffer.from("\nendobj\n"),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const entries = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

function flateStream(compressed: Buffer, extra = ""): Buffer {
  return Buffer.concat([
    Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode ${extra}>>\nstream\n`),
    compressed,
    Buffer.from("\nendstream"),
  ]);
}

/** A stream object with the given dictionary entries; /Length is right unless given. */
function rawStream(data: Buffer, entries: string, length = data.length, end = "\nendstream"): Buffer {
  return Buffer.concat([Buffer.from(`<< /Length ${length} ${entries} >>\nstream\n`), data, Buffer.from(end)]);
}

const hex = (data: Buffer) => Buffer.from(`${data.toString("hex")}>`);

/** RunLengthDecode of the data as literal runs of up to 128 bytes, with the end-of-data mark. */
function runLengthLiteral(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += 128) {
    const run = data.subarray(i, i + 128);
    parts.push(Buffer.from([run.length - 1]), run);
  }
  parts.push(Buffer.from([128]));
  return Buffer.concat(parts);
}

const deflated = new Map<string, Promise<Buffer>>();

/** `bytes` of one repeated character, deflated in 1 MB steps so the test never holds them whole. */
function deflatedRun(bytes: number, char = " "): Promise<Buffer> {
  const key = `${bytes}:${char}`;
  let result = deflated.get(key);
  if (!result) {
    result = deflateRun(bytes, char);
    deflated.set(key, result);
  }
  return result;
}

async function deflateRun(bytes: number, char: string): Promise<Buffer> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const chunks: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk));
  const block = Buffer.alloc(1024 * 1024, char);
  for (let written = 0; written < bytes; written += block.length) {
    if (!deflate.write(block)) await once(deflate, "drain");
  }
  deflate.end();
  await once(deflate, "end");
  return Buffer.concat(chunks);
}

const PAGE_TREE = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
const page = (contents: string) =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} /Resources << /Font << /F1 4 0 R >> >> >>`;

async function textPdf(text: string): Promise<Buffer> {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  doc.text(text);
  doc.end();
  await once(doc, "end");
  return Buffer.concat(chunks);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A greyscale PNG of the given size; its pixel data is `idat` (deflated rows), real or not. */
function png(width: number, height: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", idat),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Real pixel data of a white greyscale image: each row a filter byte and `width` white pixels. */
async function whiteRows(width: number, height: number): Promise<Buffer> {
  const row = Buffer.alloc(width + 1, 0xff);
  row[0] = 0;
  const deflate = createDeflate({ level: 6 });
  const chunks: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk));
  const rows = Buffer.concat(Array.from({ length: 64 }, () => row));
  for (let y = 0; y < height; y += 64) {
    if (!deflate.write(rows.subarray(0, row.length * Math.min(64, height - y)))) await once(deflate, "drain");
  }
  deflate.end();
  await once(deflate, "end");
  return Buffer.concat(chunks);
}

// --- the files ---

describe("hostile receipt files get a clear 422 with bounded memory", () => {
  it("a PDF bomb: a 1 MB upload whose content stream inflates to 1 GB", async () => {
    const stream = await deflatedRun(1024 * 1024 * 1024);
    const bomb = pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      PAGE_TREE,
      page("5 0 R"),
      FONT,
      flateStream(stream),
    ]);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expectClear422(await measured(bomb, "bomb.pdf"), "receipt_file", /too large/);
  });

  it("a PDF bomb spread over 200 streams of 1 MB each", async () => {
    const stream = await deflatedRun(1024 * 1024, "0");
    const count = 200;
    const contents = Array.from({ length: count }, (_, i) => `${i + 5} 0 R`).join(" ");
    const streams = Array.from({ length: count }, () => flateStream(stream));
    const bomb = pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      PAGE_TREE,
      page(`[${contents}]`),
      FONT,
      ...streams,
    ]);
    expect(count * 1024 * 1024).toBeGreaterThan(MAX_PDF_DECODED_BYTES);
    expectClear422(await measured(bomb, "many.pdf"), "receipt_file", /too large/);
  });

  it("a PDF bomb behind an ASCIIHex filter", async () => {
    const hex = Buffer.from(`${(await deflatedRun(256 * 1024 * 1024)).toString("hex")}>`);
    const stream = Buffer.concat([
      Buffer.from(`<< /Length ${hex.length} /Filter [/ASCIIHexDecode /FlateDecode] >>\nstream\n`),
      hex,
      Buffer.from("\nendstream"),
    ]);
    const bomb = pdfOf(["<< /Type /Catalog /Pages 2 0 R >>", PAGE_TREE, page("5 0 R"), FONT, stream]);
    expectClear422(await measured(bomb, "hex.pdf"), "receipt_file", /too large/);
  });

  // A bomb hidden from a naive scan of the dictionary or the stream's bounds; pdf.js would still inflate it.
  it.each([
    ["a #-escaped filter name", (z: Buffer) => rawStream(z, "/Filter /Fl#61teDecode")],
    ["an indirect filter", (z: Buffer) => rawStream(z, "/Filter 6 0 R")],
    ["no filter declared at all", (z: Buffer) => rawStream(z, "")],
    [
      "a dictionary padded past 16 kB",
      (z: Buffer) => rawStream(z, `/Filter /FlateDecode ${"/Pad 0 ".repeat(3000)}`),
    ],
    ["no endstream and a lying /Length", (z: Buffer) => rawStream(z, "/Filter /FlateDecode", 10, "")],
    ["two ASCIIHex layers", (z: Buffer) => rawStream(hex(hex(z)), "/Filter [/AHx /AHx /Fl]")],
    [
      "a run-length layer",
      (z: Buffer) => rawStream(runLengthLiteral(z), "/Filter [/RunLengthDecode /FlateDecode]"),
    ],
    ["an LZW layer before Flate", (z: Buffer) => rawStream(z, "/Filter [/LZWDecode /FlateDecode]")],
  ])("a PDF bomb behind %s", async (_name, wrap) => {
    const z = await deflatedRun(128 * 1024 * 1024);
    const bomb = pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      PAGE_TREE,
      page("5 0 R"),
      FONT,
      wrap(z),
      "/FlateDecode",
    ]);
    expectClear422(await measured(bomb, "bomb.pdf"), "receipt_file", /too large|could not be read/);
  });

  it("a PDF of 10,000 pages", async () => {
    const pages = 10_000;
    const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(" ");
    const objects: string[] = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
      FONT,
      ...Array.from(
        { length: pages },
        () =>
          "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>",
      ),
    ];
    expectClear422(await measured(pdfOf(objects), "pages.pdf"), "receipt_file", /10000 pages/);
  });

  it("a decompression-bomb PNG: a small file that declares 30000 × 30000 pixels", async () => {
    const bomb = png(30_000, 30_000, deflateSync(Buffer.alloc(4 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expectClear422(await measured(bomb, "bomb.png"), "receipt_file", /too large/);
  });

  it("a 50-megapixel image (real pixel data, 7072 × 7072)", async () => {
    const image = png(7072, 7072, await whiteRows(7072, 7072));
    expect(image.length).toBeLessThan(10 * 1024 * 1024);
    expectClear422(await measured(image, "big.png"), "receipt_file", /too large/);
  });

  it("the largest image the OCR accepts (39.7 megapixels, blank) is decoded within the bounds", async () => {
    const image = png(6300, 6300, await whiteRows(6300, 6300));
    expectClear422(await measured(image, "blank.png"), "receipt_file", /no readable text/);
  });

  it("a truncated JPEG", async () => {
    const jpeg = await renderReceiptImage(["# Bank of Abyssinia", "Amount\tETB 1,000.00"], {
      width: 720,
      format: "jpeg",
      quality: 80,
    });
    expectClear422(await measured(jpeg.subarray(0, 400), "cut.jpg"), "receipt_file");
    const half = await measured(jpeg.subarray(0, Math.floor(jpeg.length / 2)), "half.jpg");
    // Half a JPEG may still decode (the top of the picture); it must not read as a receipt either way.
    expectClear422(half, "receipt_file");
  });

  it("a polyglot PDF + ZIP", async () => {
    const zip = Buffer.concat([
      Buffer.from("PK\x03\x04\x14\x00\x00\x00\x00\x00", "latin1"),
      Buffer.alloc(64, 0x41),
      Buffer.from("PK\x05\x06", "latin1"),
      Buffer.alloc(18),
    ]);
    const polyglot = Buffer.concat([await textPdf("Nothing to see here"), zip]);
    expectClear422(await measured(polyglot, "receipt.zip"), "receipt_file", /not from a supported bank/);
  });

  it("a polyglot JPEG + PDF (a PDF header inside a JPEG comment)", async () => {
    const jpeg = await renderReceiptImage(["Hello"], { width: 300, format: "jpeg" });
    const pdf = await textPdf("Hidden PDF");
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(2), pdf.subarray(0, 200)]);
    comment.writeUInt16BE(comment.length - 2, 2);
    const polyglot = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2), pdf]);
    expectClear422(await measured(polyglot, "receipt.jpg"), "receipt_file");
  });

  it("a polyglot PNG + PDF (a whole PDF after the image)", async () => {
    const image = await renderReceiptImage(["Hello"], { width: 300 });
    const polyglot = Buffer.concat([image, await textPdf("Hidden PDF")]);
    expectClear422(await measured(polyglot, "receipt.png"), "receipt_file");
  });
});
