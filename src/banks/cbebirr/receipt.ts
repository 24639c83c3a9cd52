import { bankUrls } from "../../reading/links.js";
import { textLines } from "../../reading/pdf-labels.js";
import {
  cleanLines,
  compactReceipt,
  firstReading,
  type Labels,
  labelledAmount,
  namesIssuer,
  ocrAccount,
  readLabelled,
  repairFigures,
} from "../../reading/receipt-lines.js";
import { hasT24Reference, readDate, t24References } from "../../reading/t24.js";
import { repairReference } from "../../reading/text.js";
import { BANK_NAME as CBE_BANK_NAME, TIN as CBE_TIN } from "../cbe/labels.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt, ShareLink } from "../types.js";
import { createCbeBirrAdapter, normalizePhone, readCbeBirrText } from "./adapter.js";
import {
  HOST,
  PAYER_PHONE,
  ROW_START,
  startsWithLabel,
  TABLE_HEADER,
  WALLET_NAME,
  WEAK_SHARE_HOST,
} from "./labels.js";

// CBE Birr wallet receipts (docs/banks.md §2.7): the aureceipt PDF ("VAT Invoice/ Customer Receipt" under
// CBE's name) or its Telerik HTML twin. The lookup needs the receipt number and the payer's phone, which the
// receipt prints unmasked as the Debit Account on wallet transfers.

const HOSTS: readonly string[] = [HOST, WEAK_SHARE_HOST];
const NAME = new RegExp(WALLET_NAME, "i");
const CBE_NAME = new RegExp(CBE_BANK_NAME, "i");
/** 10 letters and digits (CGU…, DIP…), up to 12 as the real "DIP41PM7JLY" row shows; never all letters. */
const RECEIPT_NUMBER = /^(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{10,12}$/;
/** The Transaction Details row: receipt number, then its date (glued by pdf-parse, spaced by OCR). */
const ROW = new RegExp(String.raw`^${ROW_START}(?:\s*(\d{1,2}:\d{2}))?`);

const LABELS = [
  ["ignored", new RegExp(`^(?:${TABLE_HEADER}).*$`, "i")],
  ["customer", startsWithLabel("customer")],
  ["debit", startsWithLabel("debit")],
  ["credit", startsWithLabel("credit")],
  ["receiver", startsWithLabel("receiver")],
  ["status", startsWithLabel("status")],
  ["receiptNumber", startsWithLabel("receiptNumber")],
  ["date", startsWithLabel("date")],
  ["paid", startsWithLabel("paid")],
  ["reference", startsWithLabel("reference")],
  ["reason", startsWithLabel("reason")],
  [
    "ignored",
    startsWithLabel(
      "order",
      "total",
      "words",
      "charge",
      "vat",
      "channel",
      "region",
      "city",
      "subcity",
      "wereda",
      "customerSection",
      "transactionSection",
      "detailsSection",
    ),
  ],
] as const satisfies Labels<string>;
type Key = (typeof LABELS)[number][0];

export const cbebirrReceiptParser: BankReceiptParser = {
  bank: "cbebirr",
  issuer: NAME,
  fixedShapes: true,

  detect(text) {
    if (bankUrls(text, HOSTS).length > 0) return 10;
    const lines = cleanLines(text);
    if (namesIssuer(lines, NAME)) return 10;
    if (looksLikeCbeBirr(lines)) {
      // The wallet's receipt is issued under CBE's name and TIN.
      return namesIssuer(lines, CBE_NAME) || CBE_TIN.test(text) ? 10 : 5;
    }
    return hasT24Reference(text, ["FT"]) || hasReceiptNumberShape(text) ? 1 : 0;
  },

  lookupAccount: (receipt) => payerPhone(receipt.payerAccount ?? ""),

  parse(text, printed = null) {
    const lines = cleanLines(text);
    const link = walletLink(text);
    const reading = adapterReading(text, lines);
    const values = readLabelled(lines, LABELS, ["customer", "receiver", "credit"]);
    const transactionNumber =
      link?.link.transactionNumber ?? receiptNumber(reading?.reference, lines, values) ?? printed;
    const phone = payerPhone(values.get("debit")?.[0] ?? reading?.receipt.payerAccount ?? "");
    const claim: ReceiptReading = {
      bank: "cbebirr",
      transactionNumber,
      accountNumber: link?.link.accountNumber ?? phone,
      shareUrl: link?.url ?? null,
      receipt: {
        ...labelFields(lines, values, transactionNumber),
        ...(reading ? compactReceipt(reading.receipt) : {}),
      },
    };
    return claim;
  },
};

const DEBIT_LINE = startsWithLabel("debit");
/** "Credit Account", not another issuer's "Credit Account Id". */
const CREDIT_LINE = new RegExp(`${startsWithLabel("credit").source}(?!\\s*Id)`, "i");
const WALLET_LINE = startsWithLabel("order", "paid", "total", "channel", "receiptNumber");

/**
 * CBE Birr receipts print CBE's name and TIN; these labels (docs/banks.md §2.7) are the wallet's own, so
 * CBE's parser asks too before it claims such a text.
 */
export function looksLikeCbeBirr(lines: readonly string[]): boolean {
  const has = (pattern: RegExp) => lines.some((line) => pattern.test(line));
  return (has(DEBIT_LINE) || has(CREDIT_LINE)) && has(WALLET_LINE);
}

// --- internal helpers ---

/**
 * The wallet's receipt link. A link joined with the next line's figure ("…&PH=251924034861" and "17200", a
 * cashier's note) has a phone too long to be one: the same link unjoined, whose phone is whole, wins.
 */
function walletLink(text: string): { url: string; link: ShareLink } | null {
  const adapter = createCbeBirrAdapter();
  const links = bankUrls(text, HOSTS).flatMap((url) => {
    const link = adapter.parseShareUrl(new URL(url));
    return link ? [{ url, link }] : [];
  });
  return (
    links.find(({ link }) => !link.accountNumber || WHOLE_PHONE.test(link.accountNumber)) ?? links[0] ?? null
  );
}

/** An Ethiopian mobile number as the lookup's PH carries it (251 and 9 digits). */
const WHOLE_PHONE = /^251[79]\d{8}$/;

/** The adapter's reader handles every pdf-parse layout (values above labels, glued rows). */
function adapterReading(
  text: string,
  lines: readonly string[],
): { receipt: Receipt; reference: string } | null {
  return firstReading([textLines(repairFigures(text)), [...lines]], readCbeBirrText);
}

/** The lookup's TID: the Transaction Details row's Receipt Number, else the labelled number or Reference. */
function receiptNumber(
  fromAdapter: string | undefined,
  lines: readonly string[],
  values: ReadonlyMap<Key, string[]>,
): string | null {
  const rows = lines.map((line) => ROW.exec(line.replace(/\s*[|]\s*/g, " "))?.[1]);
  const candidates = [
    fromAdapter,
    ...rows,
    ...(values.get("receiptNumber") ?? []),
    ...(values.get("reference") ?? []),
  ];
  for (const candidate of candidates) {
    const value = candidate?.trim().split(/\s+/)[0]?.toUpperCase();
    if (!value) continue;
    // An FT-style receipt number is a T24 reference: its date digits are repaired by shape.
    if (value.startsWith("FT")) {
      const repaired = t24References(value, ["FT"])[0];
      if (repaired) return repaired;
    }
    if (RECEIPT_NUMBER.test(value)) return value;
  }
  return null;
}

function labelFields(
  lines: readonly string[],
  values: ReadonlyMap<Key, string[]>,
  reference: string | null,
): Partial<Receipt> {
  const first = (key: Key) => values.get(key)?.[0];
  const row = lines
    .map((line) =>
      /(\d{4}-\d{2}-\d{2})\s*(\d{1,2}:\d{2}(?:\s*[AP]M\b)?)?\s*((?:ETB|Br\.?|Birr)?\s*\d[\d,]*\.\d{2})?/i.exec(
        line,
      ),
    )
    .find(Boolean);
  const dateText = row ? `${row[1]} ${row[2] ?? ""}` : first("date");
  // "0976765611 - NAME" for a wallet, a bare account number for a bank.
  const [creditAccount, ...creditName] = (first("credit") ?? "").split(/\s+-\s+/);
  return compactReceipt({
    status: first("status")?.toLowerCase(),
    ...labelledAmount(first("paid") ?? row?.[3]),
    transactionDate: dateText ? (readDate(dateText, "dmy", reference) ?? undefined) : undefined,
    payerName: first("customer"),
    payerAccount: ocrAccount(first("debit")),
    receiverName: first("receiver") ?? (creditName.join(" - ") || undefined),
    receiverAccount: ocrAccount(creditAccount),
    description: first("reason"),
  });
}

/** The Debit Account as the lookup's PH: a phone is all digits, so OCR's I/O/l in it are repaired. */
function payerPhone(debit: string): string | null {
  const compact = debit.replace(/[\s\-().]/g, "").replace(/^\+/, "");
  if (!/^[0-9OoIl|]{9,14}$/.test(compact)) return null;
  const phone = normalizePhone(repairReference(compact, "9".repeat(compact.length)) ?? compact);
  return PAYER_PHONE.test(phone) ? phone : null;
}

function hasReceiptNumberShape(text: string): boolean {
  return [...text.matchAll(/(?<![A-Za-z0-9])[A-Z0-9]{10}(?![A-Za-z0-9])/g)].some((match) =>
    RECEIPT_NUMBER.test(match[0]),
  );
}
