/**
 * Awash Bank receipt text: the receipt page of awashpay.awashbank.com:8225 (copied, or a screenshot that
 * shows the address bar) and the SMS that carries its link. Only the link's token can be looked up: a
 * bare Transaction ID cannot (docs/banks.md §2.4), so a text without the link claims its Transaction ID.
 */

import { parseAmount } from "../../reading/parse-utils.js";
import {
  namesIssuer,
  ocrAccount,
  ocrAmount,
  ocrDigits,
  withoutOcrMarks,
} from "../../reading/receipt-lines.js";
import { joinWrappedLinks } from "../../reading/text.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import { parseAwashDate } from "./adapter.js";
import {
  CELL_ONLY,
  DATE_LABELS,
  HEAD_LABELS,
  LABELS,
  type Label,
  labelOf,
  PAYMENT_HEADING,
  sidesOf,
} from "./labels.js";

const BANK = "awash" as const;
/** The bank, or its app AwashBirr (Pro). */
const NAME = /\bawash(?:\s*birr)?\b/gi;
const ORIGIN = "https://awashpay.awashbank.com:8225";

// The share link, with or without its scheme (a phone's address bar drops it) and with OCR's look-alikes
// of the port. The token keeps its leading dash; one that lost it is kept as printed, and the adapter
// explains it. A host right after a letter, dot, dash or "@" is a lookalike or userinfo.
const LINK =
  /(?<![\w.@-])(?:https?:\/\/)?awashpay\.awashbank\.com(?::[\dOoIlSB]{2,5})?\/+ ?(-?[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+)/gi;
/** "-{base-36 transaction id}-{server counter}" standing alone (-2KDL95Z0NR-4U61O6). */
const TOKEN_SHAPE = /(?<![A-Za-z0-9-])-[0-9A-Z]{6,14}-[0-9A-Z]{4,8}(?![A-Za-z0-9-])/;
/** 2026+ Transaction ID: YYMMDDHHMM + 5-digit sequence (260607112275735). */
const TRANSACTION_ID = /(?<!\d)(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\d{5}(?!\d)/g;

/** The labels a text can hold (labels.ts), longest first where one starts another ("VAT Reg No", "VAT"). */
const LABEL_PATTERN = Object.entries(LABELS)
  .filter(([key]) => !CELL_ONLY.has(key as Label))
  .map(([, pattern]): string => pattern)
  .sort((a, b) => b.length - a.length)
  .join("|");
// OCR reads the colon cell as ";", "." or "," now and then, or drops it.
const LABEL_LINE = new RegExp(`^(${LABEL_PATTERN})(?![a-z])\\s*[:;.,]?\\s*(.*)$`, "i");
/** Where OCR merged the company and customer columns into one line: another label followed by its colon. */
const MERGED_COLUMN = new RegExp(`\\s+(?=(?:${LABEL_PATTERN})\\s*[:;])`, "i");
/** The words right before a Transaction ID: its label, on its line or the line above. */
const LABELLED_ID = new RegExp(`${LABELS.transactionId}\\s*[:;.,]?\\s*$`, "i");
/** The SMS's "Reason- …" or "Reason: …". */
const SMS_REASON = new RegExp(`\\b${LABELS.reason}\\s*[-:]\\s*([^,.\\n]+)`, "i");

export const awashReceiptParser: BankReceiptParser = {
  bank: BANK,
  issuer: NAME,

  detect(text) {
    const clean = cleanOcr(text);
    if (tokens(clean).length > 0 || /\b0000030100\b/.test(clean)) return 10;
    if (namesIssuer(clean.split("\n"), NAME)) return 10;
    if (TOKEN_SHAPE.test(clean) || PAYMENT_HEADING.test(clean)) return 5;
    // A 15-digit YYMMDDHHMM + sequence labelled as the Transaction ID is Awash's alone (docs/banks.md §1.2);
    // a bare one could be an account number, and only a shape.
    if (labelledTransactionId(clean)) return 5;
    return transactionIds(clean).length > 0 ? 1 : 0;
  },

  parse(text, printed = null) {
    const clean = cleanOcr(text);
    const token = tokens(clean)[0];
    // Without the link the receipt still says what it is: its Transaction ID, which the engine explains
    // cannot be looked up alone.
    const transactionNumber = token ?? transactionIds(clean)[0] ?? printed;
    const page = fromPage(clean);
    return {
      bank: BANK,
      transactionNumber,
      // With the link, the Transaction ID the message prints is still the receipt's own reference.
      reference: token ? labelledTransactionId(clean) : null,
      accountNumber: null,
      shareUrl: token ? `${ORIGIN}/${token}` : null,
      receipt: Object.keys(page).length > 0 ? page : fromSms(clean),
    } satisfies ReceiptReading;
  },
};

// --- internal helpers ---

/** OCR noise standing alone between words; dashes OCR reads as en or em dashes. */
function cleanOcr(text: string): string {
  return withoutOcrMarks(text).replace(/[\u2010-\u2015\u2212]/g, "-");
}

/**
 * The tokens of the share links in the text, as printed. Part one is the Transaction ID in base 36, so a
 * Transaction ID printed beside the link settles the O/0 and I/1 that OCR confuses there; the counter
 * part cannot be checked and stays as read.
 */
function tokens(text: string): string[] {
  const ids = transactionIds(text);
  const joined = joinWrappedLinks(text);
  const matches =
    joined === text ? [...text.matchAll(LINK)] : [...joined.matchAll(LINK), ...text.matchAll(LINK)];
  return matches.map((match) => {
    const token = match[1] ?? "";
    const [, first = "", ...rest] = token.split("-");
    if (!token.startsWith("-")) return token;
    const settled = ids.map((id) => Number(id).toString(36).toUpperCase()).find((b36) => same(b36, first));
    return settled ? ["", settled, ...rest].join("-") : token;
  });
}

const same = (a: string, b: string) => confusable(a) === confusable(b);
const confusable = (text: string) => text.toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1");

/** 15-digit numbers that read as a 2026-era YYMMDDHHMM + sequence (not account numbers). */
/** The Transaction ID the text labels as such ("Transaction ID: 260321134059699"), not a bare 15 digits. */
function labelledTransactionId(text: string): string | null {
  return transactionIds(text).find((id) => LABELLED_ID.test(ocrDigits(text).split(id)[0] ?? "")) ?? null;
}

function transactionIds(text: string): string[] {
  // OCR's O/l/I inside the printed number are digits ("26O5l2lOl5O6734").
  return [...ocrDigits(text).matchAll(TRANSACTION_ID)]
    .filter(([, yy, mm, dd, hh, mi]) => {
      const [year = 0, month = 0, day = 0, hour = 0, minute = 0] = [yy, mm, dd, hh, mi].map(Number);
      return year >= 24 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59;
    })
    .map((match) => match[0]);
}

type Rows = Map<Label, string>;

/**
 * The page's three-column rows (label, ":", value) as a copy or OCR gives them: on one line, one cell per
 * line, or the two header tables merged into one line. Rows before the transaction table are the
 * company and customer blocks.
 */
function readRows(text: string): { head: Rows; transaction: Rows } {
  const lines = text.split("\n").flatMap((line) => line.split(MERGED_COLUMN));
  const head: Rows = new Map();
  const transaction: Rows = new Map();
  let inTransaction = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (PAYMENT_HEADING.test(line)) inTransaction = true;
    const match = LABEL_LINE.exec(line);
    if (!match) continue;
    const key = labelOf(match[1] ?? "");
    if (!key) continue;
    let value = (match[2] ?? "").trim();
    if (!value) {
      let next = i + 1;
      while (next < lines.length && /^[:;.,]?$/.test(lines[next] ?? "")) next++;
      const candidate = lines[next];
      if (candidate !== undefined && !LABEL_LINE.test(candidate)) {
        value = candidate.replace(/^[:;.,]\s*/, "").trim();
        i = next;
      }
    }
    if (!HEAD_LABELS.has(key)) inTransaction = true;
    const rows = inTransaction ? transaction : head;
    if (!rows.has(key)) rows.set(key, value);
  }
  return { head, transaction };
}

/** The fields of the receipt page, picked per transaction type as the adapter picks them (`sidesOf`). */
function fromPage(text: string): Partial<Receipt> {
  const { head, transaction: tx } = readRows(text);
  // An SMS can hold a label or two ("Transaction ID:", "VAT:"); the page always has Amount and a date or type.
  const isPage = tx.has("amount") && (["transactionType", ...DATE_LABELS] as const).some((k) => tx.has(k));
  if (!isPage) return {};
  const given = (value: string | undefined) => value !== undefined && value !== "" && value !== "-";
  const pick = (...keys: Label[]) => keys.map((key) => tx.get(key)).find(given);
  const receipt: Partial<Receipt> = { status: "completed" };
  const type = pick("transactionType");
  if (type) receipt.transactionType = type;
  const amount = ocrAmount(tx.get("amount"));
  if (amount !== null) Object.assign(receipt, { amount, currency: "ETB" });
  const date = parseAwashDate(ocrDigits(pick(...DATE_LABELS) ?? ""));
  if (date) receipt.transactionDate = date;
  const sides = sidesOf(pick, (key) => [head.get(key)].find(given));
  const fields: [keyof Receipt, string | undefined][] = [
    ["payerName", sides.payerName],
    ["payerAccount", ocrAccount(sides.payerAccount)],
    ["receiverName", sides.receiverName],
    ["receiverAccount", ocrAccount(sides.receiverAccount)],
    ["description", pick("reason")],
  ];
  for (const [key, value] of fields) if (value && value !== "-") Object.assign(receipt, { [key]: value });
  return receipt;
}

/**
 * The SMS wordings seen (credit: "ETB 2,425 has been credited to your account from NAME on : date …";
 * debit: "You have sent ETB 1,600 To (account) - NAME by Transaction ID: … Date …", "You have transferred
 * to other bank ETB 400 To account (NAME)", "Telebirr Transfer of 50.00 ETB to NAME - phone from account,
 * Reason- …", "MPESA transfer of 50.00 ETB for phone ,NAME Ref …"). Balances and charges are never the amount.
 */
function fromSms(printed: string): Partial<Receipt> {
  // Look-alike letters inside numbers are digits here; the token was taken from the printed text.
  const text = ocrDigits(printed);
  const receipt: Partial<Receipt> = {};
  const amount =
    /\bETB\s*(\d[\d,]*(?:\.\d+)?)\s+has\s+been\s+(?:credited|debited)/i.exec(text) ??
    /\bhas\s+been\s+(?:credited|debited)\s+with\s+ETB\s*-?\s*(\d[\d,]*(?:\.\d+)?)/i.exec(text) ??
    /\byou\s+have\s+(?:sent|transferr?ed(?:\s+to\s+other\s+bank)?)\s+(?:ETB\s*)?(\d[\d,]*(?:\.\d+)?)/i.exec(
      text,
    ) ??
    /\b(?:transfer|payment)\s+of\s+(?:ETB\s*)?(\d[\d,]*(?:\.\d+)?)/i.exec(text) ??
    /\bairtime\s+worth\s+ETB\s*(\d[\d,]*(?:\.\d+)?)/i.exec(text);
  const value = parseAmount(amount?.[1] ?? "");
  if (value !== null) Object.assign(receipt, { amount: value, currency: "ETB" });
  const when = /\b(\d{4}-\d{2}-\d{2}):?\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)/i.exec(text);
  const date = when ? parseAwashDate(`${when[1]} ${when[2]}`) : null;
  if (date) receipt.transactionDate = date;
  // (account, name) of the receiver in the debit wordings; a telebirr wallet prints "NAME - phone".
  const receiver =
    /\bTo\s+\((\d[\d*xX]{5,})\)\s*-\s*([^\n]+?)\s+by\b/i.exec(text) ??
    /\bTo\s+(\d[\d*xX]{5,})\s*\(([^)\n]+)\)/i.exec(text) ??
    /\bfor\s+(\+?\d{9,12})\s*,\s*([^\n]+?)\s+Ref\b/i.exec(text);
  const wallet = /\bto\s+([A-Za-z][^\n]*?)\s+-\s+(\+?\d{9,12})\b/i.exec(text);
  if (receiver?.[1] && receiver[2])
    Object.assign(receipt, { receiverAccount: receiver[1], receiverName: receiver[2] });
  else if (wallet?.[1] && wallet[2])
    Object.assign(receipt, { receiverName: wallet[1], receiverAccount: wallet[2] });
  const from = /\bfrom\s+(\d[\d*xX]{6,}(?:\/(?:BANK|WALLET))?)/i.exec(text);
  if (from?.[1]) receipt.payerAccount = from[1];
  const payer = /\bcredited\s+to\s+your\s+account\s+from\s+([^\n]+?)\s+on\b/i.exec(text);
  if (payer?.[1]) receipt.payerName = payer[1];
  const reason = SMS_REASON.exec(text);
  if (reason?.[1]?.trim()) receipt.description = reason[1].trim();
  const done = /\bhas\s+been\s+(?:credited|debited)\b|\byou\s+have\s+(?:sent|transferr?ed|bought)\b/i.test(
    text,
  );
  if (done && !/\bbeing\s+processed\b|\bpending\b|\bfailed\b/i.test(text)) receipt.status = "completed";
  return receipt;
}
