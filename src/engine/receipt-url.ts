import type { BankCode } from "../banks/codes.js";
import type { BankAdapters } from "../banks/registry.js";
import type { ShareLink } from "../banks/types.js";
import { BadRequestError } from "../errors.js";

export const UNSUPPORTED_RECEIPT_URL = "The receipt url is not a supported bank receipt link.";
const MAX_URL_LENGTH = 2048;

export interface ReceiptLink {
  bank: BankCode;
  link: ShareLink;
  /** The URL as given (trimmed, without trailing sentence punctuation). */
  sourceUrl: string;
}

/**
 * Recognises a bank share link. Only https URLs on an origin (host and port) of a supported bank are
 * considered, with no credentials: anything else is refused here (400), before any connection is opened.
 */
export function parseReceiptUrl(raw: string, adapters: BankAdapters): ReceiptLink {
  const found = recognizeReceiptUrl(raw, adapters);
  if (!found) throw new BadRequestError(UNSUPPORTED_RECEIPT_URL);
  return found;
}

/** The bank share link `raw` is, or null: the same rules as parseReceiptUrl, as a question. */
export function recognizeReceiptUrl(raw: string, adapters: BankAdapters): ReceiptLink | null {
  // Links are pasted out of SMS sentences: the sentence's full stop or bracket is no part of any bank's link.
  const sourceUrl = raw.trim().replace(/[.,;:!?)\]'"]+$/, "");
  if (!sourceUrl || sourceUrl.length > MAX_URL_LENGTH || !URL.canParse(sourceUrl)) return null;
  const url = new URL(sourceUrl);
  if (url.protocol !== "https:" || url.username || url.password) return null;
  const origin = `${url.hostname}:${url.port || "443"}`;
  for (const adapter of Object.values(adapters)) {
    if (!adapter.origins.includes(origin)) continue;
    const link = adapter.parseShareUrl(url);
    if (link) return { bank: adapter.code, link, sourceUrl };
  }
  return null;
}
