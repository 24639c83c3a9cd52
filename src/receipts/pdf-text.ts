import { PDFParse } from "pdf-parse";

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
  // pdf.js transfers (detaches) the buffer it is given; copy so the caller's bytes survive.
  const parser = new PDFParse({ data: new Uint8Array(data) });
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
