import { findShareLink, mentionsHost, type ShareLinkRules, withoutLinks } from "../../reading/links.js";
import { addisIso, parseAmount } from "../../reading/parse-utils.js";
import {
  cleanLines,
  readLabelled,
  repairFigures,
  repairLetteredReference,
  withoutOcrMarks,
} from "../../reading/receipt-lines.js";
import { normalizeText } from "../../reading/text.js";
import type { BankCode } from "../codes.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import {
  createTelebirrAdapter,
  LEGACY_SHARE_HOST,
  LOOKUP_HOST,
  parseTelebirrDate,
  receiverName,
  splitBankAccount,
} from "./adapter.js";
import { ANY_LABEL, LABEL_KEYS, LABELS, LINE_LABELS, labelPattern, type TelebirrLabel } from "./labels.js";

// Telebirr receipt text (docs/banks.md §2.2): the bilingual receipt page copied from a browser or phone
// ("Select All" glues labels and values, or puts a row of labels above a row of values), OCR of a
// screenshot of it (Amharic halves come out as Latin garbage before "/English"), the telebirr app's
// transaction details, and the 127 SMS with its receipt link.

const BANK = "telebirr" as const satisfies BankCode;
const adapter = createTelebirrAdapter();
/** Ethio telecom's TIN, printed in the receipt header. */
const TIN = /(?<!\d)0000030603(?!\d)/;

const BARE_HOSTS = [LOOKUP_HOST, LEGACY_SHARE_HOST].map((host) => host.replaceAll(".", "\\.")).join("|");
/**
 * A phone's address bar in a screenshot shows the link without its scheme. weak (docs/banks.md §2.2): only
 * check.et shows the apps.ethiotelecom.et form; the adapter accepts it too and re-routes it.
 */
const BARE_LINK = new RegExp(
  String.raw`(?<![\w.@/-])(?:${BARE_HOSTS})\/receipt\/([A-Za-z0-9]{9,10})(?![A-Za-z0-9])`,
  "i",
);

const NAME = /tele\s?birr|ethio\s*telecom/i;
/** Service prefixes of telebirr references (docs/banks.md §1.2); the broader CH… and DE… are left out. */
const SERVICE_PREFIX = /^(?:DET|CHQ|DAB|DEL|ADQ|DEP|DF)/;
/** The 127 SMS names its reference as the app does (docs/banks.md §2.2): "Your transaction number is …". */
const SMS_NUMBER = String.raw`(?:${LABELS.transactionNumber})\s+`;
/** Wording only telebirr receipts and SMS use (shared labels such as "Settled Amount" are not here: Zemen). */
const PHRASES = [
  labelPattern("creditedName"),
  labelPattern("creditedAccount"),
  labelPattern("payerPhone"),
  new RegExp(String.raw`Your\s+${SMS_NUMBER}is\s+[A-Za-z0-9]{9,10}\b`, "i"),
];

export const telebirrReceiptParser: BankReceiptParser = {
  bank: BANK,
  issuer: NAME,
  fixedShapes: true,

  detect(text) {
    const t = prepare(text);
    if (mentionsHost(t, "ethiotelecom.et", BARE_LINK) || TIN.test(t)) return 10;
    const name = NAME.test(t);
    const phrase = PHRASES.some((pattern) => pattern.test(t));
    // The name alone may be a counterparty on another bank's receipt ("Telebirr Transfer" at Awash).
    if (name && phrase) return 10;
    if (name || phrase) return 5;
    const reference = bareReference(t);
    // A shape other wallets share (docs/banks.md §1.2), unless it opens with a telebirr service prefix.
    if (reference && SERVICE_PREFIX.test(reference)) return 2;
    return reference ? 1 : 0;
  },

  parse(text, printed = null) {
    const t = prepare(text);
    const link = findShareLink(t, LINK_RULES);
    const fields = readFields(t);
    const sms = readSms(t);
    const transactionNumber =
      link?.reference ?? fields.reference ?? sms.reference ?? bareReference(withoutLinks(t)) ?? printed;
    return {
      bank: BANK,
      transactionNumber,
      accountNumber: null,
      shareUrl: link?.url ?? null,
      receipt: { ...sms.receipt, ...fields.receipt },
    } satisfies ReceiptReading;
  },
};

// --- references and links ---

// docs/banks.md §1.2: 10 characters (some older ones 9) after a 2–3 letter service prefix; every sample
// starts with two letters (DFH51OFIED, CI89ORBSUJ, CCP9E4VIT), so only those two are repaired. The rest mixes
// letters and digits freely (DIP54O52IR), so an O there may really be an O.
const SHAPE_10 = "AAXXXXXXXX";
const SHAPE_9 = "AAXXXXXXX";
const REFERENCE = /^[A-Z]{2}[A-Z0-9]{7,8}$/;

function repairTelebirrReference(raw: string): string | null {
  return repairLetteredReference(raw, raw.trim().length === 9 ? SHAPE_9 : SHAPE_10, REFERENCE);
}

const LINK_RULES: ShareLinkRules = {
  parse: (url) => adapter.parseShareUrl(url),
  bare: BARE_LINK,
  repair: repairTelebirrReference,
  canonical: (reference) => `https://${LOOKUP_HOST}/receipt/${reference}`,
};

/**
 * The first reference-shaped word in `text`: telebirr's shape, and either a digit in it or written all in
 * capitals (a label's value like "CGHLDQDUD" may have no digit; words such as "Completed" are not capitals).
 */
function referenceIn(text: string, needDigit: boolean): string | null {
  for (const match of withoutDates(text).matchAll(/(?<![A-Za-z0-9])[A-Za-z0-9]{9,10}(?![A-Za-z0-9])/g)) {
    const word = match[0];
    const fixed = repairTelebirrReference(word);
    if (!fixed) continue;
    if (/\d/.test(fixed) || (!needDigit && word === word.toUpperCase())) return fixed;
  }
  return null;
}

/**
 * The invoice number of a value row glued together ("CHQ261Z4ABC18-09-2026 14:22:102450.00 Birr", a phone's
 * Select All): what stands before the page's two-digit day, as printed, whatever its length (the app's QR
 * codes have held 8–12 characters); the adapter then says whether it can be looked up.
 */
function invoiceBeforeDate(text: string): string | null {
  const id = /(?<![A-Za-z0-9])([A-Z0-9]{8,12})(?=\d{2}[-/.]\d{2}[-/.]\d{4})/.exec(text)?.[1];
  return id && /\d/.test(id) && /[A-Z]/.test(id) ? id : null;
}

/** A bare reference anywhere: only with a digit, so that capitalised words are never taken. */
function bareReference(text: string): string | null {
  return referenceIn(text, true);
}

// --- the receipt page (copied or OCR'd) and the app's details ---

interface Segment {
  key: TelebirrLabel;
  /** Everything between this label and the next one (several lines when values sit below). */
  value: string;
}

/** Splits the text on every known label, wherever it stands (glued, on its own line, mid-line). */
function segments(text: string): Segment[] {
  const found: { key: TelebirrLabel; start: number; end: number }[] = [];
  for (const match of text.matchAll(ANY_LABEL)) {
    const group = match.slice(1).findIndex((value) => value !== undefined);
    const key = LABEL_KEYS[group];
    if (key) found.push({ key, start: match.index, end: match.index + match[0].length });
  }
  return found.map((label, i) => ({
    key: label.key,
    value: text.slice(label.end, found[i + 1]?.start ?? text.length),
  }));
}

function readFields(text: string): { reference: string | null; receipt: Partial<Receipt> } {
  const all = segments(text);
  const at = (key: TelebirrLabel) => all.findIndex((segment) => segment.key === key);
  const segmentText = (key: TelebirrLabel) => {
    const index = at(key);
    return index === -1 ? "" : firstLine(all[index]?.value ?? "");
  };
  // The PDF's text order may put the labels in a column above their values: the first label then has no
  // value of its own (only the next label's Amharic half), and the line reader pairs labels and values.
  const columnar = at("payerName") !== -1 && !/[A-Za-z0-9]/.test(segmentText("payerName"));
  // prepare() left a "/" where each label's Amharic half stood; readLabelled pairs the column of labels
  // (each at the start of its line) with the column of values.
  const lined = columnar
    ? readLabelled(
        cleanLines(text).map((line) => line.replace(/^\/\s*/, "")),
        LINE_LABELS,
      )
    : undefined;
  const textOf = (key: TelebirrLabel) => (lined ? (lined.get(key)?.[0] ?? "") : segmentText(key));
  // Invoice No. | Payment date | Settled Amount may be a row of labels above a row of values.
  const shaped = <T>(key: TelebirrLabel, pick: (value: string) => T | null) => {
    const index = at(key);
    return index === -1 ? null : inRun(all, index, pick);
  };

  const reference =
    shaped("invoiceNo", (value) => referenceIn(value, false) ?? invoiceBeforeDate(value)) ??
    shaped("transactionNumber", (value) => referenceIn(value, false));
  const row = valueRow(text);
  const amount = shaped("settledAmount", amountIn) ?? (row === null ? null : amountIn(row));
  const transactionDate =
    shaped("paymentDate", dateIn) ??
    shaped("transactionTime", dateIn) ??
    (row === null ? null : dateIn(row)) ??
    onlyDate(text);
  const status = textOf("status");
  const bank = splitBankAccount(textOf("bankAccount"));
  const creditedName = textOf("creditedName");
  const note = textOf("customerNote");

  const receipt: Partial<Receipt> = {};
  if (amount !== null) Object.assign(receipt, { amount, currency: "ETB" });
  if (transactionDate) receipt.transactionDate = transactionDate;
  // As the adapter: "Completed" is the confirmed state, anything else is passed on lowercased.
  if (status) receipt.status = status.toLowerCase();
  if (textOf("paymentReason")) receipt.transactionType = textOf("paymentReason");
  if (textOf("payerName")) receipt.payerName = textOf("payerName");
  if (textOf("payerPhone")) receipt.payerAccount = textOf("payerPhone");
  const receiver = receiverName(creditedName, bank);
  // Paid to a bank: the credited party's account is the bank's internal code; the real account is here.
  const receiverAccount = bank ? bank.account : textOf("creditedAccount");
  if (receiver) receipt.receiverName = receiver;
  if (receiverAccount) receipt.receiverAccount = receiverAccount;
  if (note) receipt.description = note;
  return { reference, receipt };
}

/**
 * The invoice table's row of values ("CHSY9ADLCO 05-09-2026 12000.00 Birr": Invoice No., Payment date,
 * Settled Amount) from the date on, for a phone's narrow page whose header labels wrapped over two lines,
 * so that no label stands before its value. A time wrapped onto the next line is put back after the date.
 */
function valueRow(text: string): string | null {
  const lines = text.split("\n");
  const index = lines.findIndex((line) => VALUE_ROW.test(line));
  const row = VALUE_ROW.exec(lines[index] ?? "")?.[1];
  if (row === undefined) return null;
  const time = /^\s*(\d{1,2}:\d{2}(?::\d{2})?)\s*$/.exec(lines[index + 1] ?? "")?.[1];
  return time ? row.replace(/^(\S+)/, `$1 ${time}`) : row;
}

const VALUE_ROW = /^\s*[A-Z0-9]{8,12}\s+(\d{1,2}[-/.]\d{1,2}[-/.]\d{4}\b.*)$/;

/**
 * Looks for a shaped value from a label onwards: its own text, then the following labels' while they hold
 * no figure of their own (labels of a table header, or OCR garbage of their Amharic halves).
 */
function inRun<T>(all: readonly Segment[], index: number, pick: (value: string) => T | null): T | null {
  for (let i = index; i < Math.min(all.length, index + 3); i++) {
    const value = all[i]?.value ?? "";
    const found = pick(value);
    if (found !== null) return found;
    if (/\d/.test(value)) return null;
  }
  return null;
}

/** Ethiopic script (Amharic), the script of the label halves before "/English". */
const ETHIOPIC = "\\u1200-\\u139f\\u2d80-\\u2ddf\\uab00-\\uab2f";
/** An Amharic label half left at the end of a value ("Dawit Bekeleየከፋይ ቴሌብር ቁ."), after Latin text only. */
const TRAILING_AMHARIC = new RegExp(`(?<=[A-Za-z0-9*)])[\\s.]*[${ETHIOPIC}][${ETHIOPIC}\\s.:]*$`);

/** The first non-empty line of a value, without separators, stray OCR marks and trailing Amharic halves. */
function firstLine(value: string): string {
  for (const line of value.split("\n")) {
    const cleaned = line
      .replace(/^[\s:：.\-–|~•/\\]+/, "")
      // Each trim starts only where its run starts, so that long runs are scanned once.
      .replace(/(?<![\s:|~•/\\])[\s:|~•/\\]+$/, "")
      .replace(TRAILING_AMHARIC, "")
      .trim();
    if (cleaned) return cleaned;
  }
  return "";
}

const DATE =
  /\d{1,2}[-/.]\d{1,2}[-/.]\d{4}(?:[\sT,]*\d{1,2}:\d{2}(?::\d{2})?)?|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[\sT,]*\d{1,2}:\d{2}(?::\d{2})?)?/g;

function withoutDates(text: string): string {
  return text.replace(DATE, " ");
}

/**
 * "18-07-2025 19:58:20" (the page), "17/06/2026 18:14:15" (SMS), "2026/03/24" or "2026-09-29 08:52:33" (app,
 * some SMS). A time that a narrow table cell or a wrapped label put on the next line is the date's.
 */
function dateIn(text: string): string | null {
  for (const match of text.matchAll(DATE)) {
    const rest = text.slice((match.index ?? 0) + match[0].length);
    const time = match[0].includes(":") ? undefined : WRAPPED_TIME.exec(rest)?.[1];
    const printed = time ? `${match[0]} ${time}` : match[0];
    const iso = parseTelebirrDate(printed) ?? yearFirstDate(printed);
    if (iso) return iso;
  }
  return null;
}

/**
 * The rest of the date's line, then a line holding only a time, or the second half of a label that wrapped
 * beside its value ("Transaction 17/07/2026" over "Time 11:55:58" on the app's screen).
 */
const WRAPPED_TIME = /^[^\n]*\n[ \t]*(?:Time[ \t:]*)?(\d{1,2}:\d{2}(?::\d{2})?)[ \t]*(?:\n|$)/;

/** The date of a text that prints one date only, wherever it stands (an app screen whose label wrapped). */
function onlyDate(text: string): string | null {
  const dates = text.match(DATE) ?? [];
  return dates.length === 1 ? dateIn(text) : null;
}

function yearFirstDate(text: string): string | null {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[\sT,]*(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return addisIso({
    year,
    month,
    day,
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  });
}

const FIGURE = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;

/** "1100.00 Birr", "100 Birr", "ETB 60.00"; a bare "60.00" only when nothing is marked with a currency. */
function amountIn(text: string): number | null {
  const plain = withoutDates(text);
  const marked =
    new RegExp(String.raw`(${FIGURE})\s*(?:Birr|ETB|Br)\b`, "i").exec(plain)?.[1] ??
    new RegExp(String.raw`(?:ETB|Birr)\s*(${FIGURE})`, "i").exec(plain)?.[1] ??
    /(?<![\d.,])(\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})(?![\d.,])/.exec(plain)?.[1];
  return marked ? parseAmount(marked) : null;
}

// --- the 127 SMS ---

/** "You have transferred ETB 60.00 to …", "You have received ETB 290.00 from …", "You have paid ETB …". */
const SMS_VERB = new RegExp(
  String.raw`\bYou\s+have\s+(transferred|sent|paid|received|recharged)\s+(?:ETB\s*)?(${FIGURE})`,
  "i",
);
/** The counterparty as the SMS prints it: "Name (2519****4025)" or "Name(2519****0409)". */
const PARTY = /\b(to|from)\s+([^()\n]{1,80}?)\s*\((\+?[\d*xX•]{6,20})\)/i;
const SMS_DATE =
  /\bon\s+(\d{1,2}\/\d{1,2}\/\d{4}(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?|\d{4}-\d{2}-\d{2}(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?)/i;

const SMS_REFERENCE = new RegExp(String.raw`\b${SMS_NUMBER}(?:is\s+)?([A-Za-z0-9]{9,10})\b`, "i");

function readSms(text: string): { reference: string | null; receipt: Partial<Receipt> } {
  const flat = text.replace(/\s+/g, " ");
  const labelled = SMS_REFERENCE.exec(flat)?.[1];
  const reference = labelled ? repairTelebirrReference(labelled) : null;
  const verb = SMS_VERB.exec(flat);
  if (!verb) return { reference, receipt: {} };

  const receipt: Partial<Receipt> = {};
  // The figure right after the verb is the transfer; fees and balances come later in the message.
  const amount = parseAmount(verb[2] ?? "");
  if (amount !== null) Object.assign(receipt, { amount, currency: "ETB" });
  const sentence = flat.slice(verb.index);
  const date = SMS_DATE.exec(sentence)?.[1];
  const transactionDate = date ? dateIn(date) : null;
  if (transactionDate) receipt.transactionDate = transactionDate;
  // Only a person or wallet with its masked phone is named the way the receipt names it; bank and
  // merchant wording ("from Nib International Bank SC to your telebirr Account …") is left out.
  const party = PARTY.exec(sentence.slice(0, SMS_DATE.exec(sentence)?.index ?? sentence.length));
  if (party?.[2] && party[3]) {
    const incoming = (verb[1] ?? "").toLowerCase() === "received";
    if (incoming && party[1]?.toLowerCase() === "from") {
      Object.assign(receipt, { payerName: party[2].trim(), payerAccount: party[3] });
    } else if (!incoming && party[1]?.toLowerCase() === "to") {
      Object.assign(receipt, { receiverName: party[2].trim(), receiverAccount: party[3] });
    }
  }
  return { reference, receipt };
}

// --- OCR clean-up ---

// Within one line (an Amharic value ending a line is not the next line's label half), and bounded: label
// halves are short, and an unbounded run would make long Amharic text slow to scan.
const ETHIOPIC_HALF = new RegExp(`[${ETHIOPIC}][${ETHIOPIC} \\t.:]{0,80}/(?=[ \\t]*[A-Za-z])`, "g");

/**
 * Canonical text: Amharic label halves before "/English" dropped (so they never end a value), stray OCR
 * marks (|, ~, •) standing alone removed, and O/I/l read into figures of amounts, dates and times.
 */
function prepare(text: string): string {
  return repairFigures(withoutOcrMarks(normalizeText(text).replace(ETHIOPIC_HALF, " /")));
}
