import { mentionsHost, withoutLinks } from "../../reading/links.js";
import { plainLines } from "../../reading/pdf-labels.js";
import {
  compactReceipt,
  type Labels,
  ocrAmount,
  readLabelled,
  repairFigures,
  withoutOcrMarks,
} from "../../reading/receipt-lines.js";
import { readDate } from "../../reading/t24.js";
import { findUrls, joinWrappedLinks, normalizeText, repairReference } from "../../reading/text.js";
import type { BankCode } from "../codes.js";
import { ReceiptFormatError } from "../errors.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import {
  createZemenAdapter,
  HOST,
  labelValue,
  pureAmount,
  readZemenLabels,
  readZemenReceiptText,
  zemenDate,
  zemenStatus,
} from "./adapter.js";
import { APP_LABELS, type AppKey, anyLabel, LABEL_PATTERNS, type LabelKey, SMS_REFERENCE } from "./labels.js";

// Zemen receipt text (docs/banks.md §2.6): the receipt PDF's text and copies or photos of it, plus the share
// link https://share.zemenbank.com/rt/{token}/pdf. Only the 24-character token of that link can be looked
// up; the "Reference No." printed on the receipt cannot, so a text without the link or the token claims
// that printed reference, and the engine explains what is needed.

const BANK = "zemen" as const satisfies BankCode;
const adapter = createZemenAdapter();

/** A phone's address bar in a screenshot shows the link without its scheme. */
const BARE_LINK = /(?<![\w.@/-])share\.zemenbank\.com\/rt\/([A-Za-z0-9]+)(?:\/pdf)?(?![A-Za-z0-9])/i;
// weak (docs/banks.md §1.1, one real token 94497018108ATWR2520600HM): 8-character prefix + a 16-character
// reference laid out like Dashen's, 3 characters + 4 letters + YYDDD + 4. Only YYDDD is documented, so
// only those five positions are ever repaired; a bare token must have this layout to be taken.
const STRUCTURED_TOKEN = /^[A-Za-z0-9]{11}[A-Za-z]{4}\d{5}[A-Za-z0-9]{4}$/;

const NAME = /\bZemen\b/i;
/**
 * "your Zemen Bank account 10xx…2281 was debited": the reader's own account is at Zemen, so Zemen sent the
 * message. Unlike the name alone, this never names the other side of a transfer.
 */
const OWN_ACCOUNT = /\byour\s+Zemen(?:\s+Bank)?\s+(?:account|a\/c)\b/i;
// docs/banks.md §1.2 (Mahtem): references holding "ETTB" are Zemen's (e.g. 107ETTB261540027, the 16-character
// reference inside a share token). Alone it is no usable reference: only the share token can be looked up.
const ETTB_REFERENCE = /(?<![A-Za-z0-9])[A-Z0-9]{0,3}ETTB\d{5}[A-Z0-9]{0,4}(?![A-Za-z0-9])/;
// weak (docs/banks.md §2.6): labels from two projects, unconfirmed on real receipts; labels shared with other
// banks ("Settled Amount" and "Invoice No." are telebirr's too) are not counted.
const OWN_LABELS = (["payerAccount", "recipientName", "recipientAccount", "total"] as const).map((key) =>
  anyLabel([key]),
);

export const zemenReceiptParser: BankReceiptParser = {
  bank: BANK,
  issuer: NAME,

  detect(text) {
    const t = normalizeText(text);
    if (mentionsHost(t, "zemenbank.com", BARE_LINK) || OWN_ACCOUNT.test(t)) return 10;
    const name = NAME.test(t);
    const labels = OWN_LABELS.filter((pattern) => pattern.test(t)).length >= 2;
    const token = bareToken(t) !== null || ETTB_REFERENCE.test(t);
    // The name alone may be a counterparty's bank on another bank's receipt.
    if (name && (labels || token)) return 10;
    if (name || labels || token) return 5;
    return 0;
  },

  parse(text, printed = null) {
    const t = normalizeText(text);
    const link = findLink(t);
    const token = link.token ?? bareToken(t);
    const body = withoutLinks(t, BARE_LINK);
    // Without the token the receipt still says what it is: its Reference No., which the engine explains
    // cannot be looked up alone.
    const reference = printedReference(body);
    return {
      bank: BANK,
      transactionNumber: token ?? reference ?? printed,
      reference,
      accountNumber: null,
      shareUrl: link.url,
      receipt: readDocument(body),
    } satisfies ReceiptReading;
  },
};

// --- tokens and links ---

/** A token: an 8-character prefix and the 16-character reference (docs/banks.md §2.6), which is repaired. */
function repairToken(token: string): string {
  return token.length === 24 ? token.slice(0, 8) + repairLayout(token.slice(8)) : token;
}

/**
 * A 16-character reference of Zemen's layout (3 + 4-letter type + YYDDD + 4: 108ATWR2520600HM) with OCR's
 * look-alikes repaired where the layout decides: letters in the type (U0Z0 → UOZO), digits in YYDDD (263O3 →
 * 26303). A type with fewer than two real letters is another layout, left as printed.
 */
function repairLayout(reference: string): string {
  const type = reference.slice(3, 7);
  if (reference.length !== 16 || (type.match(/[A-Za-z]/g) ?? []).length < 2) return reference;
  // Letters keep their case (a token is case-sensitive as printed); only look-alike figures become letters.
  const letters = [...type].map((ch) => (/[A-Za-z]/.test(ch) ? ch : repairReference(ch, "A")));
  const date = repairReference(reference.slice(7, 12), "99999");
  if (!date || letters.includes(null)) return reference;
  return `${reference.slice(0, 3)}${letters.join("")}${date}${reference.slice(12)}`;
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
  const bare = BARE_LINK.exec(joinWrappedLinks(text))?.[1] ?? BARE_LINK.exec(text)?.[1];
  if (bare) {
    const token = repairToken(bare);
    if (token.length === 24) return { token, url: canonical(token), present: true };
    present = true;
  }
  return { token: null, url: null, present };
}

/**
 * The receipt's own "Reference No." (a PDF or a copy of it carries no share token), or an SMS's "Ref No." /
 * "Ref:"; else an unlabelled ETTB reference (docs/banks.md §1.2).
 */
function printedReference(text: string): string | null {
  const prepared = prepare(text);
  const values = [labelValue(plainLines(prepared), "reference") ?? ""];
  for (const match of prepared.matchAll(SMS_REFERENCE)) {
    values.push(prepared.slice(match.index + match[0].length, match.index + match[0].length + 40));
  }
  for (const value of values) {
    const reference = referenceIn(value);
    if (reference) return reference;
  }
  return ETTB_REFERENCE.exec(text)?.[0] ?? null;
}

/**
 * The first word of a reference label's value, as the reference: 8 or more letters and digits with a digit.
 * The 16-character layout (3 + 4 letters + YYDDD + 4, as inside the share token) has its YYDDD repaired.
 */
function referenceIn(value: string): string | null {
  const word = value.trim().split(/\s+/)[0] ?? "";
  const reference = word.replace(/[.,;:)]+$/, "").replace(/[^A-Za-z0-9]/g, "");
  if (reference.length < 8 || !/\d/.test(reference)) return null;
  // Repaired before uppercasing: OCR's small l is a 1, while its capital L is no look-alike.
  return repairLayout(reference).toUpperCase();
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

const DOCUMENT_LABELS = anyLabel(["payerName", "recipientName", "settled", "total", "status"]);

function readDocument(text: string): Partial<Receipt> {
  const prepared = prepare(text);
  if (!DOCUMENT_LABELS.test(prepared)) return readAppScreen(prepared);
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
  const { amount, transactionDate, status, reference: _, ...fields } = readZemenLabels(plainLines(text));
  return compactReceipt({
    ...fields,
    status: status ? zemenStatus(status) : undefined,
    amount: amount ?? undefined,
    currency: amount === null ? undefined : "ETB",
    transactionDate: transactionDate ?? undefined,
  });
}

// --- the app's success screen and its shared receipt ---

/** The app's rows (labels.ts) at the start of a line. */
const APP_LINE_LABELS: Labels<AppKey> = (Object.entries(APP_LABELS) as [AppKey, string][]).map(
  ([key, source]) => [key, new RegExp(source, "i")] as const,
);

/** The screen's headline ("Transfer Successful") reports a completed transfer. */
const SUCCESS_HEADLINE = /^(?:Transfer|Transaction|Payment)\s+Successful(?:ly)?\b/im;

/** "1021******6213 LEMLEM GEBRU" or "1021******6213": the app's From / To rows, account first. */
const ACCOUNT_THEN_NAME = /^([0-9][0-9*xX•#-]{5,}[0-9*xX•#])(?:\s+([A-Za-z][A-Za-z .'/&-]*))?$/;

/**
 * The app's success screen or its shared receipt (copied or photographed): Sender / Receiver rows, or
 * From / To rows holding an account and a name, an Amount apart from Service Charge, VAT and Total.
 * {} for any other text (an SMS is the SMS reader's).
 */
function readAppScreen(text: string): Partial<Receipt> {
  const found = readLabelled(plainLines(text), APP_LINE_LABELS);
  const value = (key: AppKey) => found.get(key)?.[0];
  const from = ACCOUNT_THEN_NAME.exec(value("from") ?? "");
  const to = ACCOUNT_THEN_NAME.exec(value("to") ?? "");
  const sides = ["payerName", "payerAccount", "receiverName", "receiverAccount"] as const;
  const headline = SUCCESS_HEADLINE.test(text);
  if (!headline && !from && !to && !sides.some((key) => found.has(key))) return {};
  const amount = ocrAmount(value("amount")) ?? undefined;
  const status = value("status");
  return compactReceipt({
    status: status ? zemenStatus(status) : headline ? "completed" : undefined,
    amount,
    currency: amount === undefined ? undefined : "ETB",
    transactionDate: appDate(value("date") ?? ""),
    payerName: value("payerName") ?? from?.[2]?.trim(),
    payerAccount: value("payerAccount") ?? from?.[1],
    receiverName: value("receiverName") ?? to?.[2]?.trim(),
    receiverAccount: value("receiverAccount") ?? to?.[1],
  });
}

/** Zemen's "27-Jan-2026, 12:30:00 pm" (docs/banks.md §1.6), or an unambiguous ISO "2026-06-18 14:32:10". */
function appDate(value: string): string | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}\b/.test(value) ? readDate(value, "dmy") : null;
  return zemenDate(value) ?? iso ?? undefined;
}

// --- OCR clean-up and layouts ---

/**
 * Stray OCR marks (|, ~, •) standing alone removed, O/I/l read into figures of amounts, dates and times,
 * a time wrapped under its date joined back, and values printed above their labels put after them.
 */
function prepare(text: string): string {
  const lines = plainLines(joinWrappedTime(repairFigures(withoutOcrMarks(text))));
  return (valuesAboveLabels(lines) ?? lines).join("\n");
}

/** "18-Feb-2026," then "07:22:10 am" on the next line (a narrow photo column): one date again. */
function joinWrappedTime(text: string): string {
  return text.replace(
    /(\d{1,2}-[A-Za-z]{3,9}-\d{4},?)[ \t]*\n[ \t]*(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\b\.?)?)[ \t]*(?=\n|$)/g,
    "$1 $2",
  );
}

/** Whether a value fits what its label holds; null for labels whose values say nothing of their place. */
function fitsLabel(key: LabelKey, value: string): boolean | null {
  switch (key) {
    case "invoiceNo":
      return /^\d{6,}$/.test(value);
    case "date":
      return zemenDate(value) !== null;
    case "payerName":
    case "recipientName":
      return /^[A-Za-z][A-Za-z .'/&-]*$/.test(value);
    case "payerAccount":
    case "recipientAccount":
      return /^[0-9][0-9*xX•# -]{5,}$/.test(value);
    case "reference":
      return /^[A-Za-z0-9]{8,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
    case "status":
      return /^[A-Za-z]+(?: [A-Za-z]+)?$/.test(value);
    case "settled":
    case "serviceCharge":
    case "vat":
    case "total":
      return pureAmount(value) !== null;
    default:
      return null;
  }
}

/** The receipt label a line holds alone (nothing after it but separators), else null. */
function bareLabel(line: string): LabelKey | null {
  for (const [key, pattern] of Object.entries(LABEL_PATTERNS) as [LabelKey, RegExp][]) {
    const match = pattern.exec(line);
    if (match?.index === 0 && /^[\s:.|-]*$/.test(line.slice(match[0].length))) return key;
  }
  return null;
}

function isLabelLine(line: string | undefined): boolean {
  if (line === undefined) return false;
  return Object.values(LABEL_PATTERNS).some((pattern) => pattern.exec(line)?.index === 0);
}

/**
 * Some PDF extractors give each value on the line above its label ("MARTHA BELAY" then "Payer name:").
 * Label and value lines then alternate just as in the usual value-below layout, so the two pairings are
 * told apart by which one fits what the labels hold (a date under Date, an amount under Settled Amount).
 * The lines rewritten as "label value" when the values above fit better, else null.
 */
function valuesAboveLabels(lines: readonly string[]): string[] | null {
  const bare = lines.flatMap((line, i) => {
    const key = bareLabel(line);
    return key ? [{ i, key }] : [];
  });
  if (bare.length < 2) return null;
  const valueAt = (j: number) => (isLabelLine(lines[j]) ? undefined : lines[j]);
  const fits = (key: LabelKey, value: string | undefined) =>
    value !== undefined && fitsLabel(key, value) === true ? 1 : 0;
  const above = bare.reduce((sum, { i, key }) => sum + fits(key, valueAt(i - 1)), 0);
  const below = bare.reduce((sum, { i, key }) => sum + fits(key, valueAt(i + 1)), 0);
  if (above <= below) return null;
  const moved = new Set(bare.filter(({ i }) => valueAt(i - 1) !== undefined).map(({ i }) => i - 1));
  return lines.flatMap((line, i) => {
    if (moved.has(i)) return [];
    const key = bareLabel(line);
    const value = key ? valueAt(i - 1) : undefined;
    return value === undefined ? [line] : [`${line} ${value}`];
  });
}
