import type { BankCode } from "../../banks/codes.js";
import { ReceiptFormatError } from "../../banks/errors.js";
import { plainLines } from "../../banks/pdf-labels.js";
import type { Receipt } from "../../banks/types.js";
import {
  createZemenAdapter,
  labelValue,
  pureAmount,
  readZemenReceiptText,
  rowAmount,
  withoutAmount,
  zemenDate,
} from "../../banks/zemen.js";
import { findUrls, normalizeText, repairReference } from "../text.js";
import type { ReceiptClaim, ReceiptTextParser } from "../types.js";
import { mentionsHost, withoutLinks } from "./links.js";
import { compactReceipt, repairFigures, withoutOcrMarks } from "./shared.js";

// Zemen receipt text (banks.md §2.6): the receipt PDF's text and copies or photos of it, plus the share
// link https://share.zemenbank.com/rt/{token}/pdf. Only the 24-character token of that link can be looked
// up; the "Reference No." printed on the receipt cannot, so a text without the link or the token has no
// usable reference (parse returns null) however well its fields read.

const BANK = "zemen" as const satisfies BankCode;
const adapter = createZemenAdapter();
const HOST = "share.zemenbank.com";

/** A phone's address bar in a screenshot shows the link without its scheme. */
const BARE_LINK = /(?<![\w.@/-])share\.zemenbank\.com\/rt\/([A-Za-z0-9]+)(?:\/pdf)?(?![A-Za-z0-9])/i;
// weak (banks.md §1.1, one real token 94497018108ATWR2520600HM): 8-character prefix + a 16-character
// reference laid out like Dashen's, 3 characters + 4 letters + YYDDD + 4. Only YYDDD is stated by banks.md,
// so only those five positions are ever repaired; a bare token must have this layout to be taken.
const STRUCTURED_TOKEN = /^[A-Za-z0-9]{11}[A-Za-z]{4}\d{5}[A-Za-z0-9]{4}$/;

const NAME = /\bZemen\b/i;
// banks.md §1.2 (Mahtem): references holding "ETTB" are Zemen's (e.g. 107ETTB261540027, the 16-character
// reference inside a share token). Alone it is no usable reference: only the share token can be looked up.
const ETTB_REFERENCE = /(?<![A-Za-z0-9])[A-Z0-9]{0,3}ETTB\d{5}[A-Z0-9]{0,4}(?![A-Za-z0-9])/;
// weak (banks.md §2.6): labels from two projects, unconfirmed on real receipts; labels shared with other
// banks ("Settled Amount" and "Invoice No." are telebirr's too) are not counted.
const LABELS = [
  /Payer\s*account\s*no/i,
  /Recipient\s*name/i,
  /Recipient\s*account\s*no/i,
  /Total\s*Amount\s*Paid/i,
];

export const zemenReceiptParser: ReceiptTextParser = {
  bank: BANK,

  detect(text) {
    const t = normalizeText(text);
    if (mentionsHost(t, "zemenbank.com", BARE_LINK)) return 10;
    const name = NAME.test(t);
    const labels = LABELS.filter((pattern) => pattern.test(t)).length >= 2;
    const token = bareToken(t) !== null || ETTB_REFERENCE.test(t);
    // The name alone may be a counterparty's bank on another bank's receipt.
    if (name && (labels || token)) return 10;
    if (name || labels || token) return 5;
    return 0;
  },

  parse(text) {
    const t = normalizeText(text);
    const link = findLink(t);
    const token = link.token ?? bareToken(t);
    if (!token && !link.present) return null;
    return {
      bank: BANK,
      // A link whose token is damaged is still this bank's receipt, but it cannot be looked up.
      transactionNumber: token,
      accountNumber: null,
      shareUrl: link.url,
      receipt: readDocument(withoutLinks(t, BARE_LINK)),
    } satisfies ReceiptClaim;
  },
};

// --- tokens and links ---

/** YYDDD (positions 16–20) repaired from OCR confusions when the token has the known layout; else as printed. */
function repairToken(token: string): string {
  if (token.length !== 24 || !/^[A-Za-z]{4}$/.test(token.slice(11, 15))) return token;
  const date = repairReference(token.slice(15, 20), "99999");
  return date ? `${token.slice(0, 15)}${date}${token.slice(20)}` : token;
}

/**
 * The share link: a full https link the adapter accepts, else a scheme-less one from an address bar.
 * `present` is true for a link of the share host even when its token is unusable.
 */
function findLink(text: string): { token: string | null; url: string | null; present: boolean } {
  let present = false;
  for (const raw of findUrls(text)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (url.hostname.toLowerCase() !== HOST) continue;
    present = true;
    const share = adapter.parseShareUrl(url);
    if (!share?.token) continue;
    const token = repairToken(share.token);
    return { token, url: token === share.token ? raw : canonical(token), present };
  }
  const bare = BARE_LINK.exec(text)?.[1];
  if (bare) {
    const token = repairToken(bare);
    if (token.length === 24) return { token, url: canonical(token), present: true };
    present = true;
  }
  return { token: null, url: null, present };
}

function canonical(token: string): string {
  return `https://${HOST}/rt/${token}/pdf`;
}

/** A token standing alone in the text (OCR of a printed or pasted token); only with the known layout. */
function bareToken(text: string): string | null {
  const rest = withoutLinks(text, BARE_LINK);
  for (const match of rest.matchAll(/(?<![A-Za-z0-9])[A-Za-z0-9]{24}(?![A-Za-z0-9])/g)) {
    const token = repairToken(match[0]);
    if (STRUCTURED_TOKEN.test(token)) return token;
  }
  return null;
}

// --- the receipt (PDF text, copied page, photo) ---

const DOCUMENT_LABELS =
  /Payer\s*name|Recipient\s*name|Settled\s*Amount|Total\s*Amount\s*Paid|Transaction\s*status/i;

function readDocument(text: string): Partial<Receipt> {
  const prepared = prepare(text);
  if (!DOCUMENT_LABELS.test(prepared)) return {};
  try {
    // The adapter's own reading when the receipt is whole.
    return compactReceipt(readZemenReceiptText(prepared).receipt);
  } catch (error) {
    if (!(error instanceof ReceiptFormatError)) throw error;
  }
  return readPartialDocument(prepared);
}

/** What a damaged receipt (a photo missing its status or date) still states, read the adapter's way. */
function readPartialDocument(text: string): Partial<Receipt> {
  const lines = plainLines(text);
  const value = (key: Parameters<typeof labelValue>[1]) => labelValue(lines, key);
  const detail = value("detail") ?? "";
  const settled = value("settled");
  const amount =
    pureAmount(settled) ?? rowAmount(settled) ?? rowAmount(detail) ?? amountFromTotal(value) ?? undefined;
  const status = value("status");
  return compactReceipt({
    status: status ? statusOf(status) : undefined,
    transactionType: withoutAmount(detail),
    amount,
    currency: amount === undefined ? undefined : "ETB",
    transactionDate: zemenDate(value("date") ?? "") ?? zemenDate(lines.join("\n")) ?? undefined,
    payerName: value("payerName"),
    payerAccount: value("payerAccount"),
    receiverName: value("recipientName"),
    receiverAccount: value("recipientAccount"),
  });
}

/** As the adapter: Total Amount Paid minus Service Charge and VAT, never the total itself. */
function amountFromTotal(
  value: (key: Parameters<typeof labelValue>[1]) => string | undefined,
): number | null {
  const total = pureAmount(value("total"));
  const charge = pureAmount(value("serviceCharge"));
  const vat = pureAmount(value("vat"));
  if (total === null || charge === null || vat === null) return null;
  const settled = Math.round((total - charge - vat) * 100) / 100;
  return settled > 0 ? settled : null;
}

/** weak (banks.md §2.6), as the adapter: success-like words mean a completed transfer. */
function statusOf(text: string): string {
  return /^(?:success(?:ful)?|completed?|approved)$/i.test(text) ? "completed" : text.toLowerCase();
}

// --- OCR clean-up ---

/** Stray OCR marks (|, ~, •) standing alone removed, O/I/l read into figures of amounts, dates and times. */
function prepare(text: string): string {
  return repairFigures(withoutOcrMarks(text));
}
