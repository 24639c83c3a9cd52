/**
 * Siinqee Bank receipt text. No real Siinqee receipt layout is known (docs/banks.md §2.9, Weak): the text
 * goes through the adapter's generic key/value reader, and the reference comes from the bank's link
 * (siinqeebank.com/receipt/{ref}, the older receipt.ebirr.com/siinqee/{token}) or an FT reference.
 */

import { htmlPage } from "../../reading/html-page.js";
import { schemelessLinks } from "../../reading/links.js";
import {
  namesIssuer,
  ocrAccount,
  ocrAmount,
  ocrDigits,
  withoutOcrMarks,
} from "../../reading/receipt-lines.js";
import { hasT24Reference, t24References } from "../../reading/t24.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import { createSinqeeAdapter } from "./adapter.js";
import { type Field, htmlPairs, parseReceiptDate, readStatusWords } from "./parse.js";

const BANK = "sinqee" as const;
const adapter = createSinqeeAdapter();

// A host right after a letter, dot, dash or "@" is a lookalike or userinfo, never the bank's link. Other
// eBirr tenants (receipt.ebirr.com/coopay/…) are dropped by the adapter.
const LINK = /(?<![\w.@-])(?:https?:\/\/)?(?:siinqeebank\.com|receipt\.ebirr\.com)\/[^\s<>"'()]+/gi;
/** The bank's name in its spellings ("Siinqee Bank", "Baankii Siinqee"; check.et writes "sinqee"). */
// OCR reads the q of "Siinqee" as g and its i as l or 1 now and then.
const NAME = /\bs[il1|]{1,2}n[qg]ee\b/gi;
// weak (docs/banks.md §2.9): the one example (FT262507XG9T) is a T24 FT reference, FT + YYDDD + 5 alnum, the
// shape every FT bank prints (docs/banks.md §1.1), read and repaired as the other FT banks read it.

export const sinqeeReceiptParser: BankReceiptParser = {
  bank: BANK,
  issuer: NAME,

  detect(text) {
    const clean = cleanOcr(text);
    if (bankLinks(clean).length > 0 || namesIssuer(clean.split("\n"), NAME)) return 10;
    // A bare FT reference is shared with CBE, BOA, Amhara and CBE Birr: never enough to pick Siinqee.
    return hasT24Reference(clean, ["FT"]) ? 1 : 0;
  },

  parse(text, printed = null) {
    const clean = cleanOcr(text);
    const link = bankLinks(clean)[0] ?? null;
    const pairs = htmlPairs(htmlPage(clean));
    const transactionNumber =
      link?.reference ??
      (pairs.get("reference") ?? []).flatMap((value) => t24References(value, ["FT"]))[0] ??
      t24References(clean, ["FT"])[0] ??
      printed;
    return {
      bank: BANK,
      transactionNumber,
      accountNumber: null,
      shareUrl: link?.url ?? null,
      receipt: receiptOf(pairs, clean),
    } satisfies ReceiptReading;
  },
};

// --- internal helpers ---

/**
 * OCR noise standing alone between words. Copied table cells arrive tab-separated: the tab becomes a
 * colon so that the generic reader sees "Label: value".
 */
function cleanOcr(text: string): string {
  return withoutOcrMarks(text.replace(/[ \u00A0]*\t+[ \u00A0]*/g, ": "));
}

/**
 * The bank's links with the reference or token each carries, as the adapter reads them; those whose token is
 * an FT reference first, so that a link joined with the next line's figure ("…/FT26181BSD3T" and "19050", a
 * cashier's note) gives way to the same link unjoined.
 */
function bankLinks(text: string): { url: string; reference: string }[] {
  const links = schemelessLinks(text, LINK, (url) => adapter.parseShareUrl(url)).map(({ url, link }) => {
    const reference = t24References(link.transactionNumber, ["FT"])[0];
    return { url, reference: reference ?? link.transactionNumber, isFt: reference !== undefined };
  });
  return links
    .sort((a, b) => Number(b.isFt) - Number(a.isFt))
    .map(({ url, reference }) => ({ url, reference }));
}

/** The fields the generic reader found; nothing is guessed where a label is missing. */
function receiptOf(pairs: Map<Field, string[]>, text: string): Partial<Receipt> {
  const first = (field: Field) => pairs.get(field)?.[0]?.trim() ?? "";
  const receipt: Partial<Receipt> = {};
  const amount = ocrAmount(first("amount"));
  // Some receipts print the debit side as "-5,000.00"; the transferred amount is its size.
  if (amount !== null) Object.assign(receipt, { amount: Math.abs(amount), currency: "ETB" });
  const date = first("date") ? parseReceiptDate(ocrDigits(first("date"))) : null;
  if (date) receipt.transactionDate = date;
  const printed: [keyof Receipt, string | undefined][] = [
    ["payerName", first("payerName")],
    ["payerAccount", ocrAccount(first("payerAccount"))],
    ["receiverName", first("receiverName")],
    ["receiverAccount", ocrAccount(first("receiverAccount"))],
    ["description", first("description")],
    ["transactionType", first("type")],
  ];
  for (const [key, value] of printed) if (value) Object.assign(receipt, { [key]: value });
  const status = first("status");
  // As the adapter reads it: only a plain success word counts as completed.
  if (status) {
    receipt.status = readStatusWords(status);
  } else if (/\b(?:transfer|transaction|payment)\s+(?:successful|completed)\b/i.test(text)) {
    // An app screen has no status row; its heading says the transfer went through.
    receipt.status = "completed";
  }
  return receipt;
}
