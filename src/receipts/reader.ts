import { readFile } from "node:fs/promises";
import { bankName } from "../banks/catalogue.js";
import type { BankCode } from "../banks/codes.js";
import type { QrReading } from "../banks/qr-reading.js";
import type { ReceiptClaim } from "../banks/receipt-claim.js";
import { isBankReference, RECEIPT_PARSERS } from "../banks/receipt-parsers.js";
import { ValidationError } from "../errors.js";
import type { Metrics } from "../metrics/registry.js";
import { assertPdfNotBomb } from "../pdf/guard.js";
import { extractPdfText, renderPdfFirstPage, UnreadablePdfError } from "../pdf/text.js";
import { detectBank } from "./detect.js";
import {
  withConfidentReference,
  withGlyphReference,
  withoutDoubledGlyph,
  withoutDoubtful,
  withPageArithmetic,
  withUnsureGlyphs,
} from "./doubtful.js";
import { readHead, sniffFileType } from "./file-type.js";
import { type OcrEngine, type OcrReading, OcrTimeoutError, UnreadableImageError } from "./ocr/index.js";
import type { QrReceiptReader } from "./qr/read-qr.js";
import { UnreferencedReceiptError } from "./unreferenced.js";

/** A receipt as a caller sends it: text, a file already on disk (streamed there by the upload), or both. */
export interface ReceiptDocument {
  text?: string;
  file?: { path: string };
  /** A bank code hint; it always wins over detection. */
  bank?: BankCode;
  /**
   * The caller wants what the receipt states (parse-receipt): beside a QR code, which names the receipt but
   * holds few of its fields, the image is also read by OCR when the server runs it.
   */
  fields?: boolean;
}

/** How the text was obtained; reported as `verification_method`. */
export const RECEIPT_METHODS = [
  "receipt_pdf",
  "receipt_text",
  "receipt_image",
  "receipt_ocr",
  "receipt_qr",
] as const;
export type ReceiptMethod = (typeof RECEIPT_METHODS)[number];

/** The reference (or link token) was read from an image by OCR, the server's or the caller's: it may be misread. */
export function readFromImage(method: string): boolean {
  return method === "receipt_ocr" || method === "receipt_image";
}

export interface ReadReceipt {
  claim: ReceiptClaim;
  method: ReceiptMethod;
  /** The request field the claim came from, for error messages about it. */
  field: "receipt_file" | "receipt_text";
}

export interface ReceiptReader {
  read(document: ReceiptDocument): Promise<ReadReceipt>;
}

export const qrDisagrees = (code: string, printed: string) =>
  `The receipt's QR code names transaction ${code}, but the receipt shows ${printed}.`;

export const FILE_TYPE_MESSAGE = "The receipt file must be a file of type: pdf, jpg, jpeg, png, webp.";
/** A link token or a reference read only in part: looking it up would only say "not found". */
const partlyRead = (bank: BankCode, reference: string) =>
  `The ${bankName(bank)} ${reference.startsWith("v2-") ? "receipt link" : "reference"} on the image could not be read whole. Send the link itself, the SMS text or the transaction reference.`;
export const IMAGE_NEEDS_TEXT = "The receipt text field is required when receipt file is an image.";

/**
 * Turns a receipt document into what it claims: PDFs are read on the server, images need the caller's OCR
 * text unless server OCR is on, and the text goes to the hinted bank's parser or to bank detection.
 * Every unreadable input is a ValidationError saying what was missing.
 */
export function createReceiptReader(options: {
  ocr: OcrEngine | null;
  /** QR codes of images are read first, when given: a code naming a receipt needs no OCR. */
  qr?: QrReceiptReader;
  /** OCR and PDF durations are observed here when given. */
  metrics?: Metrics;
}): ReceiptReader {
  const { metrics } = options;
  async function textOf(
    document: ReceiptDocument,
  ): Promise<{ text: string; method: ReceiptMethod; ocr?: OcrReading }> {
    if (!document.file) return { text: document.text ?? "", method: "receipt_text" };
    const type = sniffFileType(await readHead(document.file.path));
    if (!type) throw ValidationError.field("receipt_file", FILE_TYPE_MESSAGE);
    if (type === "pdf") {
      try {
        const pdf = await readFile(document.file.path);
        assertPdfNotBomb(pdf);
        const stop = metrics?.pdfParseSeconds.startTimer();
        try {
          return { text: await extractPdfText(pdf), method: "receipt_pdf" };
        } finally {
          stop?.();
        }
      } catch (error) {
        if (error instanceof UnreadablePdfError) throw ValidationError.field("receipt_file", error.message);
        throw error;
      }
    }
    if (document.text?.trim()) return { text: document.text, method: "receipt_image" };
    if (!options.ocr) throw ValidationError.field("receipt_text", IMAGE_NEEDS_TEXT);
    const stop = metrics?.ocrSeconds.startTimer();
    try {
      const reading = await recognize(options.ocr, document.file.path);
      return { text: reading.text, method: "receipt_ocr", ocr: reading };
    } finally {
      stop?.();
    }
  }

  /** The caller's text of an image, else, when the receipt's fields are wanted, the server's OCR of it. */
  async function printedText(document: ReceiptDocument): Promise<string | null> {
    if (document.text?.trim()) return document.text;
    if (!document.fields || !options.ocr || !document.file) return null;
    const stop = metrics?.ocrSeconds.startTimer();
    try {
      return (await recognize(options.ocr, document.file.path)).text;
    } finally {
      stop?.();
    }
  }

  /** The receipt an image's QR code names, with what the text printed on the same receipt says. */
  async function qrOf(document: ReceiptDocument): Promise<ReadReceipt | null> {
    if (!options.qr || !document.file) return null;
    const type = sniffFileType(await readHead(document.file.path));
    if (!type || type === "pdf") return null;
    const claim = claimOfCode(await options.qr.read(await readFile(document.file.path)));
    if (!claim) return null;
    const printed = await printedText(document);
    const text = printed ? RECEIPT_PARSERS[claim.bank].parse(printed) : null;
    // A code naming a reference (not a link's token) must name the one the caller read on the receipt: a
    // receipt whose code and print disagree is a doctored one. (Our own OCR may misread a reference, so its
    // text only adds fields when it agrees.)
    const sameReceipt =
      !text ||
      claim.shareUrl !== null ||
      text.shareUrl !== null ||
      text.transactionNumber === claim.transactionNumber;
    if (text && !sameReceipt && printed === document.text) {
      throw ValidationError.field(
        "receipt_file",
        qrDisagrees(claim.transactionNumber, text.transactionNumber),
      );
    }
    // The code is exact; the text only adds the fields a code does not hold.
    const receipt = text && sameReceipt ? { ...text.receipt, ...claim.receipt } : claim.receipt;
    return { claim: { ...claim, receipt }, method: "receipt_qr", field: "receipt_file" };
  }

  /** A scanned or image-only PDF: the QR code drawn on its first page. */
  async function pdfQrOf(document: ReceiptDocument): Promise<ReadReceipt | null> {
    if (!options.qr || !document.file) return null;
    const page = await renderPdfFirstPage(await readFile(document.file.path));
    const claim = claimOfCode(page ? await options.qr.read(page) : null);
    return claim ? { claim, method: "receipt_qr", field: "receipt_file" } : null;
  }

  return {
    async read(document) {
      const fromQr = await qrOf(document);
      if (fromQr) return fromQr;
      const { text, method, ocr } = await textOf(document);
      const field = document.file ? ("receipt_file" as const) : ("receipt_text" as const);
      try {
        const read = claimOf(text, field, document.bank);
        const claim = ocr ? asOcrSaw(read, text, ocr) : read;
        if (
          readFromImage(method) &&
          RECEIPT_PARSERS[claim.bank].wholeFromImage?.(claim.transactionNumber) === false
        ) {
          throw ValidationError.field(field, partlyRead(claim.bank, claim.transactionNumber));
        }
        return { claim, method, field };
      } catch (error) {
        // A PDF's text is exact where it has any; one without usable text may still carry its QR code.
        const fromPdf =
          method === "receipt_pdf" && error instanceof ValidationError ? await pdfQrOf(document) : null;
        if (fromPdf) return fromPdf;
        throw error;
      }
    },
  };
}

/**
 * A claim read from our own OCR, checked against what tesseract saw: the reference spelled as its glyphs'
 * widths or a word it was sure of spell it, a glyph it read twice dropped, then without the values it
 * doubted, the amount as the page's arithmetic has it, and with the glyphs of the reference it was unsure
 * of marked.
 */
function asOcrSaw(claim: ReceiptClaim, text: string, ocr: OcrReading): ReceiptClaim {
  const parser = RECEIPT_PARSERS[claim.bank];
  const reread = (word: string) => parser.parse(word)?.transactionNumber ?? null;
  const reference = withoutDoubledGlyph(
    withConfidentReference(withGlyphReference(claim, text, ocr.glyphs, reread), text, ocr.doubtful, reread),
    reread,
    (candidate) => isBankReference(claim.bank, candidate),
  );
  return withUnsureGlyphs(
    withPageArithmetic(withoutDoubtful(reference, ocr.doubtful, text), text),
    ocr.codes,
  );
}

/** The receipt a QR code names; a bank's code that cannot be checked is a 422 saying what to send. */
function claimOfCode(reading: QrReading | null): ReceiptClaim | null {
  if (reading?.kind === "unusable") throw ValidationError.field("receipt_file", reading.message);
  return reading?.claim ?? null;
}

function claimOf(text: string, field: ReadReceipt["field"], hint: BankCode | undefined): ReceiptClaim {
  if (!text.trim()) throw ValidationError.field(field, "The receipt has no readable text.");
  const bank = hint ?? detected(text, field);
  const reading = RECEIPT_PARSERS[bank].read(text);
  const { transactionNumber } = reading;
  if (!transactionNumber) throw new UnreferencedReceiptError(field, reading);
  return { ...reading, transactionNumber };
}

function detected(text: string, field: string): BankCode {
  const detection = detectBank(text);
  if (detection.kind === "detected") return detection.bank;
  if (detection.kind === "ambiguous") {
    throw ValidationError.field(
      "bank",
      `The bank could not be determined from the receipt (it may be ${detection.candidates.join(", ")}). Please provide the bank.`,
    );
  }
  throw ValidationError.field(
    field,
    "The receipt is not from a supported bank, or its text could not be read.",
  );
}

async function recognize(ocr: OcrEngine, path: string): Promise<OcrReading> {
  try {
    return await ocr.recognize(await readFile(path));
  } catch (error) {
    if (error instanceof UnreadableImageError || error instanceof OcrTimeoutError) {
      throw ValidationError.field("receipt_file", error.message);
    }
    throw error;
  }
}
