import { findShareLink, mentionsHost, type ShareLinkRules, withoutLinks } from "../../reading/links.js";
import { addisIso, parseAmount, to24Hour } from "../../reading/parse-utils.js";
import { plainLines } from "../../reading/pdf-labels.js";
import {
  compactReceipt,
  repairFigures,
  repairLetteredReference,
  withoutOcrMarks,
} from "../../reading/receipt-lines.js";
import type { BankCode } from "../codes.js";
import { ReceiptFormatError } from "../errors.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import {
  createMpesaAdapter,
  HOST,
  labelValue,
  mpesaDate,
  mpesaFee,
  readMpesaReceiptText,
  totalLessFees,
} from "./adapter.js";
import { anyLabel, LABELS } from "./labels.js";

// M-Pesa receipt text (docs/banks.md §2.8): the receipt PDF's text (bilingual labels, TRANSACTION ID beside
// an internal RECEIPT NO that is never the reference, TOTAL with the fees listed apart), the same receipt
// copied from the receipt page or photographed, and the SMS ("you have sent 2.00 Birr to …",
// "Transaction number UGO4D2CODA", the receipt link; the older "CODE Confirmed." style).

const BANK = "mpesa" as const satisfies BankCode;
const adapter = createMpesaAdapter();

/** A phone's address bar in a screenshot shows the link without its scheme. */
const BARE_LINK = new RegExp(
  String.raw`(?<![\w.@/-])${HOST.replaceAll(".", "\\.")}\/receipt\/([A-Za-z0-9]{10})(?![A-Za-z0-9])`,
  "i",
);

const NAME = /\bM-?PESA\b|\bSafaricom\b/i;
/** The SMS's opening, "you have sent 2.00 Birr to …" (docs/banks.md §2.8): group 1 is the verb. */
const SMS_VERB_SOURCE = String.raw`\byou\s+have\s+(sent|transferred|paid|received|bought)\b`;
const SMS_VERB = new RegExp(SMS_VERB_SOURCE, "i");
/** The SMS's label of its reference, "Transaction number UGO4D2CODA" (the receipt's TRANSACTION ID). */
const SMS_NUMBER = String.raw`Transaction\s+number`;
/** The older SMS style, "UFS98HOPQJ Confirmed.": group 1 is the reference. */
const CONFIRMED = /(?<![A-Za-z0-9])([A-Z0-9]{10})\s+Confirmed\b/;
/** Wording only M-Pesa uses: receipt labels, and SMS amounts written "2.00 Birr" (telebirr writes "ETB 60.00"). */
const PHRASES = [
  anyLabel("payerPhone"),
  new RegExp(String.raw`\b${SMS_NUMBER}\s+[A-Z0-9]{10}\b`),
  new RegExp(String.raw`${CONFIRMED.source}\.`),
  new RegExp(String.raw`${SMS_VERB_SOURCE}[^.]{0,60}?\d(?:[\d,]*\d)?(?:\.\d+)?\s*Birr\b`, "i"),
];
/** A receipt's two numbers side by side: the reference and the internal RECEIPT NO. */
const TRANSACTION_ID = anyLabel("transactionId");
const RECEIPT_NO = anyLabel("receiptNo");

/** A Safaricom phone, as M-Pesa prints the other side ("NAME 251714***707", docs/banks.md §2.8) or 07…. */
const SAFARICOM_PHONE = /(?<![\d*])(?:\+?2517\d|07\d)[\d*Xx•]{7}(?![\d*])/;

export const mpesaReceiptParser: BankReceiptParser = {
  bank: BANK,
  issuer: NAME,
  fixedShapes: true,

  detect(text) {
    const t = prepare(text);
    if (mentionsHost(t, "safaricom.et", BARE_LINK)) return 10;
    const name = NAME.test(t);
    const phrase =
      PHRASES.some((pattern) => pattern.test(t)) || (TRANSACTION_ID.test(t) && RECEIPT_NO.test(t));
    // The name alone may be a counterparty on another provider's receipt (a transfer to an M-Pesa wallet).
    if (name && phrase) return 10;
    if (name || phrase) return 5;
    const reference = bareReference(t);
    // A Safaricom number beside a reference other wallets share: telebirr and CBE Birr wallets are 2519….
    if (reference && SAFARICOM_PHONE.test(t)) return 2;
    return reference ? 1 : 0;
  },

  parse(text, printed = null) {
    const t = prepare(text);
    const link = findShareLink(t, LINK_RULES);
    const body = withoutLinks(t, BARE_LINK);
    const document = readDocument(body);
    const sms = readSms(body);
    const transactionNumber =
      link?.reference ?? document.reference ?? sms.reference ?? bareReference(body) ?? printed;
    return {
      bank: BANK,
      transactionNumber,
      accountNumber: null,
      shareUrl: link?.url ?? null,
      receipt: { ...sms.receipt, ...document.receipt },
    } satisfies ReceiptReading;
  },
};

// --- references and links ---

// docs/banks.md §2.8: 10 capitals and digits (UGO4D2CODA, UFS98HOPQJ, SJ72HK3YZ9). Every sample opens with
// two letters, which fits Safaricom's codes starting with a year and a month letter (UGO… of 24 Jul 2026,
// UFS… of 28 Jun 2026), so only those two are repaired; the other eight mix letters and digits freely.
const SHAPE = "AAXXXXXXXX";
const REFERENCE = /^[A-Z]{2}[A-Z0-9]{8}$/;

function repairMpesaReference(raw: string): string | null {
  return repairLetteredReference(raw, SHAPE, REFERENCE);
}

const LINK_RULES: ShareLinkRules = {
  parse: (url) => adapter.parseShareUrl(url),
  bare: BARE_LINK,
  repair: repairMpesaReference,
  canonical: (reference) => `https://${HOST}/receipt/${reference}`,
};

const RECEIPT_NO_VALUE = new RegExp(String.raw`(?:${LABELS.receiptNo})\s*:?\s*\S*`, "gi");

/** A bare 10-character reference with a digit (never a capitalised word), outside the RECEIPT NO line. */
function bareReference(text: string): string | null {
  const scan = text.replace(RECEIPT_NO_VALUE, " ");
  for (const match of scan.matchAll(/(?<![A-Za-z0-9])[A-Z0-9]{10}(?![A-Za-z0-9])/g)) {
    const fixed = repairMpesaReference(match[0]);
    if (fixed && /\d/.test(fixed)) return fixed;
  }
  return null;
}

// --- the receipt (PDF text, copied page, photo) ---

// Labels only the receipt has; "Transaction ID" alone may be an SMS's wording, which states no status.
const RECEIPT_LABELS = anyLabel("payerName", "payerPhone", "receiverName", "receiptNo");

function readDocument(text: string): { reference: string | null; receipt: Partial<Receipt> } {
  if (!RECEIPT_LABELS.test(text)) return { reference: null, receipt: {} };
  try {
    // The adapter's own reading when the receipt is whole: the same amount rule (TOTAL minus the fees).
    const { receipt, reference } = readMpesaReceiptText(text);
    return {
      reference: reference ? repairMpesaReference(reference) : null,
      receipt: compactReceipt(receipt),
    };
  } catch (error) {
    if (!(error instanceof ReceiptFormatError)) throw error;
  }
  return readPartialDocument(text);
}

/**
 * What a damaged receipt (a photo missing its date or a fee figure) still states. The amount is only
 * given when it is certain: a printed AMOUNT, TOTAL minus readable fees, or TOTAL when no fee is listed.
 */
function readPartialDocument(text: string): { reference: string | null; receipt: Partial<Receipt> } {
  const lines = plainLines(text);
  const flat = lines.join("\n");
  const value = (key: Parameters<typeof labelValue>[1]) => labelValue(lines, key) || undefined;
  const id = value("transactionId");
  const receipt: Partial<Receipt> = {
    // A receipt is only issued for a transaction that went through (the adapter reads it the same way).
    status: "completed",
    transactionType: value("transactionType"),
    payerName: value("payerName"),
    payerAccount: value("payerPhone"),
    receiverName: value("receiverName"),
    receiverAccount: value("receiverNumber"),
  };
  const amount = partialAmount(lines, value("amount"), value("total"));
  if (amount !== null) Object.assign(receipt, { amount, currency: "ETB" });
  const transactionDate = mpesaDate(flat);
  if (transactionDate) receipt.transactionDate = transactionDate;
  return {
    reference: id ? repairMpesaReference(id.split(/\s/)[0] ?? "") : null,
    receipt: compactReceipt(receipt),
  };
}

function partialAmount(lines: readonly string[], printed: string | undefined, total: string | undefined) {
  const amount = printed ? parseAmount(printed) : null;
  if (amount !== null) return amount;
  const totalAmount = total ? parseAmount(total) : null;
  if (totalAmount === null) return null;
  // The adapter's rule, with fees that may be unreadable here.
  const serviceFee = mpesaFee(lines, "serviceFee");
  const vat = mpesaFee(lines, "vat");
  if (serviceFee === null || vat === null) return null;
  const settled = totalLessFees(totalAmount, serviceFee, vat);
  return settled > 0 ? settled : null;
}

// --- the SMS ---

const FIGURE = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
/** "on 24/7/26 at 11:53 AM": day first, two-digit year. */
const SMS_DATE =
  /\bon\s+(\d{1,2})\/(\d{1,2})\/(\d{2,4})\s+at\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?/;
const PHONE = String.raw`\+?\d[\d*xX•]{7,20}`;

/** The reference after its label: the SMS's "Transaction number", or the receipt's TRANSACTION ID. */
const SMS_REFERENCE = new RegExp(
  String.raw`\b(?:${SMS_NUMBER}|${LABELS.transactionId})\s*:?\s*([A-Za-z0-9]{10})\b`,
  "i",
);

function readSms(text: string): { reference: string | null; receipt: Partial<Receipt> } {
  const flat = text.replace(/\s+/g, " ");
  const labelled = SMS_REFERENCE.exec(flat)?.[1] ?? CONFIRMED.exec(flat)?.[1];
  const reference = labelled ? repairMpesaReference(labelled) : null;
  const verb = SMS_VERB.exec(flat);
  if (!verb) return { reference, receipt: {} };

  const receipt: Partial<Receipt> = {};
  const sentence = flat.slice(verb.index);
  const dateMatch = SMS_DATE.exec(sentence);
  const head = sentence.slice(0, dateMatch?.index ?? sentence.length);
  // The first figure after the verb is the transfer; "Transaction fee" and the balance come later.
  const figure = new RegExp(String.raw`(${FIGURE})\s*Birr\b|(?:ETB|Birr)\s*(${FIGURE})`, "i").exec(head);
  const amount = figure ? parseAmount(figure[1] ?? figure[2] ?? "") : null;
  if (amount !== null) Object.assign(receipt, { amount, currency: "ETB" });
  if (dateMatch) {
    receipt.transactionDate = addisIso({
      year: Number(dateMatch[3]),
      month: Number(dateMatch[2]),
      day: Number(dateMatch[1]),
      hour: to24Hour(Number(dateMatch[4]), dateMatch[7]),
      minute: Number(dateMatch[5]),
      second: Number(dateMatch[6] ?? 0),
    });
  }
  // Without the date the end of the counterparty is unknown, so it is left out.
  if (dateMatch) Object.assign(receipt, counterparty((verb[1] ?? "").toLowerCase(), head));
  // The older style says so itself: "UFS98HOPQJ Confirmed."
  if (CONFIRMED.test(flat)) receipt.status = "completed";
  return { reference, receipt };
}

/** "to NAME 251714***707", "from NAME 2517…", "to SHOP". */
function counterparty(verb: string, head: string): Partial<Receipt> {
  // A bundle or airtime is bought "for <phone>": that phone is not the receipt's receiver.
  if (verb === "bought") return {};
  const incoming = verb === "received";
  const party = new RegExp(String.raw`\b${incoming ? "from" : "to"}\s+(.+?)\s*$`, "i").exec(head)?.[1];
  // A counterparty is a name and a phone; anything longer is not one (and would be slow to split).
  if (!party || party.length > 120) return {};
  const split = new RegExp(String.raw`^(.*?)\s*(${PHONE})$`).exec(party);
  const name = (split ? split[1] : party)?.trim() ?? "";
  const account = split?.[2] ?? "";
  const out: Partial<Receipt> = {};
  if (incoming) {
    if (name) out.payerName = name;
    if (account) out.payerAccount = account;
  } else {
    if (name) out.receiverName = name;
    if (account) out.receiverAccount = account;
  }
  return out;
}

// --- OCR clean-up ---

/** Canonical text: stray OCR marks (|, ~, •) standing alone removed, O/I/l read into figures. */
function prepare(text: string): string {
  return repairFigures(withoutOcrMarks(text));
}
