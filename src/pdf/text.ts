import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { PDFParse } from "pdf-parse";

/** A PDF we refuse to read: encrypted, broken, too many pages, or too slow. The message is user-facing. */
export class UnreadablePdfError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UnreadablePdfError";
  }
}

export interface PdfTextOptions {
  /** Only the first pages are read; receipts are one page. */
  maxPages?: number;
  /** A document with more pages than this is not a receipt, and is refused unread. */
  maxTotalPages?: number;
  timeoutMs?: number;
}

/** Extracts the text of a PDF, as pdf-parse emits it (labels glued to values), without page markers. */
export async function extractPdfText(data: Uint8Array, options: PdfTextOptions = {}): Promise<string> {
  const { maxPages = 5, maxTotalPages = 50, timeoutMs = 10_000 } = options;
  const { PDFParse: Parser } = await loadPdfParse();
  // pdf.js transfers (detaches) the buffer it is given; copy so the caller's bytes survive.
  const parser: PDFParse = new Parser({ data: new Uint8Array(data) });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnreadablePdfError("The PDF took too long to read.")), timeoutMs);
  });
  try {
    const result = await Promise.race([parser.getText({ pageJoiner: "", first: maxPages }), timeout]);
    if (result.total > maxTotalPages) {
      throw new UnreadablePdfError(
        `The PDF has ${result.total} pages; a receipt has at most ${maxTotalPages}.`,
      );
    }
    return result.text;
  } catch (error) {
    if (error instanceof UnreadablePdfError) throw error;
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") {
      throw new UnreadablePdfError("The PDF is password-protected.", { cause: error });
    }
    throw new UnreadablePdfError("The PDF could not be read.", { cause: error });
  } finally {
    clearTimeout(timer);
    await parser.destroy().catch(() => undefined);
  }
}

/**
 * The first page drawn as a PNG (its width in pixels), for the QR code a receipt PDF carries as an image
 * or as vector paths; null when the page cannot be drawn in time.
 */
export async function renderPdfFirstPage(
  data: Uint8Array,
  width = 1280,
  timeoutMs = 5_000,
): Promise<Uint8Array | null> {
  const { PDFParse: Parser } = await loadPdfParse();
  const parser: PDFParse = new Parser({ data: new Uint8Array(data) });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const shot = await Promise.race([
      parser.getScreenshot({ first: 1, desiredWidth: width, imageDataUrl: false }),
      timeout,
    ]);
    return shot?.pages[0]?.data ?? null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    await parser.destroy().catch(() => undefined);
  }
}

// --- internal helpers ---

let pdfParse: Promise<typeof import("pdf-parse")> | undefined;

/** One empty page; pdf.js rebuilds the missing cross-reference table. */
const BLANK_PDF =
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
  "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

/** A file of the pdf.js that pdf-parse uses (its own dependency). */
function pdfjsFile(file: string): string {
  return createRequire(createRequire(import.meta.url).resolve("pdf-parse")).resolve(`pdfjs-dist/${file}`);
}

/**
 * pdf-parse and pdf.js's worker code (run on this thread as pdf.js's "fake worker"), loaded on the first
 * PDF rather than at start, with source maps off: under `npm run dev`'s tsx Node would read and keep
 * pdf.js's 7.6 MB of them.
 */
function loadPdfParse(): Promise<typeof import("pdf-parse")> {
  pdfParse ??= (async () => {
    const enabled = process.sourceMapsEnabled;
    process.setSourceMapsEnabled(false);
    try {
      const module = await import("pdf-parse");
      // The same code minified: V8 keeps a module's whole source, here at two bytes a character (4.2 MB
      // for pdf.worker.mjs, 2.2 MB for this one).
      module.PDFParse.setWorker(pathToFileURL(pdfjsFile("legacy/build/pdf.worker.min.mjs")).href);
      // pdf.js imports its worker code with the first document: read a blank page while maps are off.
      const blank = new module.PDFParse({ data: new TextEncoder().encode(BLANK_PDF) });
      await blank.getText().catch(() => undefined);
      await blank.destroy().catch(() => undefined);
      return module;
    } finally {
      process.setSourceMapsEnabled(enabled);
    }
  })();
  return pdfParse;
}
