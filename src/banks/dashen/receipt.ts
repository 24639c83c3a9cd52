/**
 * Dashen Bank receipt text: the receipt page of receipts.dashenbanksc.com (copied or photographed), the old
 * wkhtmltopdf PDF ("Transaction Ref", "Instituton Name"), the Super App screen ("FT Ref") and the SMS.
 */

import { schemelessLinks } from "../../reading/links.js";
import { parseAmount } from "../../reading/parse-utils.js";
import {
  namesIssuer,
  ocrAccount,
  ocrAmount,
  ocrDigits,
  withoutOcrMarks,
} from "../../reading/receipt-lines.js";
import { readDate } from "../../reading/t24.js";
import { repairReference } from "../../reading/text.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import { createDashenAdapter, parseDashenDate } from "./adapter.js";
import { LABELS, sliceByLabels } from "./labels.js";

const BANK = "dashen" as const;
const NAME = /\bdashen\b/gi;
const adapter = createDashenAdapter();

/**
 * The FT Ref: 3-char branch/channel code + 4-letter type + YYDDD + 4 alnum (822LTWS2622600WJ). The code's
 * last two and the sequence's first two are digits in every sample (B22, D31, 641, 045, 387, 110, 822, 132;
 * 0001, 00WH, 00W7): OCR's O or I there is a 0 or a 1. Only the code's first character may be a letter.
 */
const FT_SHAPE = "X99AAAA9999999XX";
/** The same shape in print, unrepaired: the type letters are real letters, the YYDDD may hold look-alikes. */
const PRINTED_FT = /(?<![A-Za-z0-9])[A-Z0-9]{3}[A-Z]{4}[0-9OIlSBZ]{5}[A-Z0-9]{4}(?![A-Za-z0-9])/g;

// Current host, the old receipt host (502 now) and the old PDF host; the adapter re-routes the old ones.
// A host right after a letter, dot, dash or "@" is a lookalike or userinfo, never the bank's link.
const LINK =
  /(?<![\w.@-])(?:https?:\/\/)?(?:receipts\.dashenbanksc\.com|receipt\.dashensuperapp\.com|api\.dashensuperapp\.com)\/[^\s<>"'()]+/gi;

const { ftRef, transactionReference, transactionRef, transferReference } = LABELS;
/**
 * Labels of the reference: receipt ("Transaction Reference"), old PDF ("Transaction Ref"), app ("FT Ref",
 * "FT Reference"), SMS ("transaction reference"). No word boundary after them: pdf-parse glues the value on.
 */
const REFERENCE_LABEL = new RegExp(
  String.raw`\b(?:${ftRef}(?:erence)?|${transactionReference}|${transactionRef}|${transferReference})(?:\s*No\.)?`,
  "gi",
);

/** Labels only Dashen prints (docs/banks.md §2.3), including the old PDF's typo. */
const DISTINCTIVE = [
  new RegExp(LABELS.institutonName, "i"),
  new RegExp(LABELS.transactionChannel, "i"),
  new RegExp(LABELS.exciseTax, "i"),
  new RegExp(
    `${transferReference}[\\s\\S]*${transactionReference}|${transactionReference}[\\s\\S]*${transferReference}`,
    "i",
  ),
  new RegExp(String.raw`\b${ftRef}\b`, "i"),
];

export const dashenReceiptParser: BankReceiptParser = {
  bank: BANK,
  issuer: NAME,
  // docs/banks.md §2.3's real SMS: "debited with ETB 100.48 … A service fee of ETB 0.4, VAT … DRRF fee …".
  debitHoldsFees: true,

  detect(text) {
    const clean = withoutOcrMarks(text);
    if (bankLinks(clean).length > 0 || /dashen\s*(?:bank\s*)?super\s*app/i.test(clean)) return 10;
    if (namesIssuer(clean.split("\n"), NAME)) return 10;
    if (DISTINCTIVE.some((label) => label.test(clean)) || printedReferences(clean).length > 0) return 5;
    return 0;
  },

  parse(text, printed = null) {
    const clean = withoutOcrMarks(text);
    const link = bankLinks(clean)[0] ?? null;
    const transactionNumber =
      link?.reference ?? labelledReference(clean) ?? printedReferences(clean)[0] ?? printed;
    const page = fromReceipt(clean);
    const receipt = Object.keys(page).length > 0 ? page : fromSms(clean);
    return {
      bank: BANK,
      transactionNumber,
      accountNumber: null,
      shareUrl: link?.url ?? null,
      receipt,
    } satisfies ReceiptReading;
  },
};

// --- internal helpers ---

/** An FT Ref repaired by its shape: look-alikes become letters in the type and digits in YYDDD. */
function repairFt(candidate: string): string | null {
  return repairReference(candidate, FT_SHAPE);
}

/** The bank's receipt links, each with the FT Ref it carries (repaired by shape when OCR garbled it). */
function bankLinks(text: string): { url: string; reference: string }[] {
  return schemelessLinks(text, LINK, (url) => adapter.parseShareUrl(url)).map(({ url, link }) => {
    const repaired = repairFt(link.transactionNumber);
    if (!repaired || repaired === link.transactionNumber) return { url, reference: link.transactionNumber };
    // Point the link at the repaired reference, so that the lookup asks for the transaction on the paper.
    const at = url.toUpperCase().lastIndexOf(link.transactionNumber);
    return { url: url.slice(0, at) + repaired + url.slice(at + repaired.length), reference: repaired };
  });
}

/**
 * The FT Ref after a reference label. The app's long "Transaction Ref" / "Transfer Reference"
 * (OBTI28455679126320660525) sits under the same labels and is skipped: no endpoint resolves it.
 * The adapter's label reader ends a value where a glued label starts ("…0001Date:Jun 21"); the app's
 * "FT Ref" and the SMS's "with transaction reference" are found here. OCR may split the 16 characters.
 */
function labelledReference(text: string): string | null {
  const fields = sliceByLabels(text);
  const values = [fields.reference ?? "", fields.transferReference ?? ""];
  for (const match of text.matchAll(REFERENCE_LABEL)) {
    values.push(text.slice(match.index + match[0].length, match.index + match[0].length + 60));
  }
  for (const value of values) {
    const [first = "", second = ""] = value.replace(/^[\s:;.\-|]+/, "").split(/[\s:;,]+/);
    for (const candidate of [first, first + second]) {
      const bare = candidate.replace(/[.)]+$/, "");
      const repaired = bare.length === 16 ? repairFt(bare) : null;
      if (repaired) return repaired;
    }
  }
  return null;
}

/** Unlabelled 16-character references of the Dashen shape whose YYDDD is a real day. */
function printedReferences(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PRINTED_FT)) {
    const repaired = repairFt(match[0]);
    const day = Number(repaired?.slice(9, 12));
    if (repaired && day >= 1 && day <= 366) found.push(repaired);
  }
  return found;
}

/** Receipt page, old PDF or app screen: the adapter's own label reader, after OCR repairs of each value. */
function fromReceipt(text: string): Partial<Receipt> {
  const fields = sliceByLabels(text);
  const isReceipt = fields.amount !== undefined || fields.payerName !== undefined;
  if (!isReceipt) return {};
  const receipt: Partial<Receipt> = { status: "completed" };
  const amount = ocrAmount(fields.amount);
  if (amount !== null) Object.assign(receipt, { amount, currency: "ETB" });
  // OCR reads the commas of "Jun 11, 2026, 08:45:50 am" as dots now and then.
  const date = fields.date ? parseDashenDate(ocrDigits(fields.date).replace(/(\d)\.(?=\s)/g, "$1,")) : null;
  if (date) receipt.transactionDate = date;
  const set = (key: "payerName" | "receiverName" | "transactionType", value: string | undefined) => {
    if (value?.trim()) receipt[key] = value.trim();
  };
  set("payerName", fields.payerName);
  set("receiverName", fields.receiverName);
  set("transactionType", fields.serviceType);
  if (fields.narrative?.trim()) receipt.description = fields.narrative.trim();
  const payerAccount = ocrAccount(fields.payerAccount);
  if (payerAccount) receipt.payerAccount = payerAccount;
  // Wallet transfers (to telebirr) print the receiver's phone instead of an account.
  const receiverAccount = ocrAccount(fields.receiverAccount) || ocrAccount(fields.phone);
  if (receiverAccount) receipt.receiverAccount = receiverAccount;
  return receipt;
}

/**
 * The SMS: "you have successfully transferred ETB 50.00 from your account 5822**011 to NAME tele birr
 * account +2519… on 2026-08-14 at 08:52:25 with transaction reference …", or the older "your account
 * 5110****011 has been debited with ETB 100.48 on … A service fee of ETB 0.4, VAT … have been applied".
 */
function fromSms(printed: string): Partial<Receipt> {
  // Look-alike letters inside numbers are digits here; the reference was taken from the printed text.
  const text = ocrDigits(printed);
  const receipt: Partial<Receipt> = {};
  const sent = /\b(transferred|debited\s+with|credited\s+with)\s+(?:ETB|Birr)\s*(\d[\d,]*(?:\.\d+)?)/i.exec(
    text,
  );
  const stated = parseAmount(sent?.[2] ?? "");
  if (sent && stated !== null) {
    let amount = stated;
    // weak (docs/banks.md §2.3): the old debit SMS states the debit with its fees ("debited with ETB 100.48 …
    // a service fee of ETB 0.4, VAT of ETB 0.06 and DRRF fee of ETB 0.02 have been applied" for a 100.00
    // transfer); the transferred amount is the debit less those fees.
    if (/^debited/i.test(sent[1] ?? "")) {
      const fees = [
        ...text.matchAll(/\b(?:service\s+(?:fee|charge)|VAT|DRRF)\b[^.\d]*?ETB\s*(\d[\d,]*(?:\.\d+)?)/gi),
      ];
      const total = fees.reduce((sum, fee) => sum + (parseAmount(fee[1] ?? "") ?? 0), 0);
      if (total > 0 && total < amount) amount = Math.round((amount - total) * 100) / 100;
    }
    Object.assign(receipt, { amount, currency: "ETB" });
  }
  const when =
    /\bon\s+(\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{4})(?:\s+at\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?))?/.exec(
      text,
    );
  const date = when ? readDate(`${when[1]} ${when[2] ?? ""}`.trim(), "dmy") : null;
  if (date) receipt.transactionDate = date;
  const payer =
    /\bfrom\s+your\s+account(?:\s+number)?\s+'?([0-9*xX]{6,})/i.exec(text) ??
    /\byour\s+account\s+'?([0-9*xX]{6,})'?\s+(?:has\s+been|is)\s+debited/i.exec(text);
  if (payer?.[1]) receipt.payerAccount = payer[1];
  const receiver =
    /\bto\s+([^\n,]{2,60}?)(?:'s)?\s+(?:tele\s?birr\s+|m-?pesa\s+|wallet\s+)?account(?:\s+number)?\s+'?(\+?[0-9*xX]{6,})/i.exec(
      text,
    );
  if (receiver?.[1] && receiver[2]) {
    receipt.receiverName = receiver[1].trim();
    receipt.receiverAccount = receiver[2];
  }
  if (/\bsuccessfully\b|\b(?:has\s+been|is)\s+debited\b/i.test(text)) receipt.status = "completed";
  return receipt;
}
