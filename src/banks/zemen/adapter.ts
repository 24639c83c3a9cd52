import { addisIso, isPdf, monthNumber, parseAmount, to24Hour } from "../../reading/parse-utils.js";
import { plainLines, readInlineLabel, readPdfText } from "../../reading/pdf-labels.js";
import type { BankCode } from "../codes.js";
import {
  type BankOptions,
  bankNetwork,
  DESKTOP_USER_AGENT,
  isPlainHttps,
  normalizeAccount,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByToken } from "../reference.js";
import type { BankAdapter, BankResponse, LookupOutcome, Receipt, ShareLink } from "../types.js";
import { LABEL_PATTERNS, type LabelKey, SETTLED_ON_ITS_LINE } from "./labels.js";

const BANK = "zemen" as const satisfies BankCode;

export const HOST = "share.zemenbank.com";
/** 8-character prefix + 16-character reference (docs/banks.md §2.6); case kept as the bank wrote it. */
const TOKEN = /^[A-Za-z0-9]{24}$/;

export type ZemenOptions = BankOptions;

export function createZemenAdapter(options: ZemenOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [`${HOST}:443`],
    // A PDF answer: the PDF budget of docs/banks.md §1.4.
    network: bankNetwork({ timeoutMs: 30_000 }, options.network),
    normalizeReference,
    normalizeAccount,
    validate(target) {
      const token = tokenOf(target);
      if (target.token !== null && !TOKEN.test(token)) {
        return { field: "receipt_url", message: "The receipt link token is invalid for Zemen Bank." };
      }
      if (!TOKEN.test(token)) {
        // A bare printed reference (e.g. ETTB…) cannot be looked up; only the share link's token works.
        return {
          field: "transaction_number",
          message:
            "Zemen Bank receipts can only be checked with the receipt share link (https://share.zemenbank.com/rt/.../pdf) or its 24-character token.",
        };
      }
      return null;
    },
    parseShareUrl(url) {
      if (!isPlainHttps(url) || url.hostname !== HOST) return null;
      const token = /^\/rt\/([A-Za-z0-9]+)(?:\/pdf)?\/?$/i.exec(url.pathname)?.[1];
      if (!token || !TOKEN.test(token)) return null;
      return { transactionNumber: token, accountNumber: null, token } satisfies ShareLink;
    },
    buildRequest(target) {
      return {
        url: `https://${HOST}/rt/${encodeURIComponent(tokenOf(target))}/pdf`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: "application/pdf,*/*" },
      };
    },
    parseResponse: (response, target) => parseZemenResponse(response, tokenOf(target)),
  };
}

/**
 * Reads the text of a Zemen receipt PDF. weak (docs/banks.md §2.6): the labels come from two projects and are
 * unconfirmed on real receipts, so every value is sliced by label and the settled amount is looked for
 * both beside its label and under a "Transaction Detail | Settled Amount" table header.
 */
export function parseZemenReceiptText(text: string): Receipt {
  return readZemenReceiptText(text).receipt;
}

/** The receipt and its "Reference No:" (the 16-character reference inside the share token). */
export function readZemenReceiptText(text: string): { receipt: Receipt; reference: string } {
  const lines = plainLines(text);
  const fail = (what: string): never => {
    throw new ReceiptFormatError(
      BANK,
      `The Zemen receipt has no readable ${what}.`,
      lines.join("\n").slice(0, 200),
    );
  };
  const fields = readZemenLabels(lines);
  const amount = fields.amount ?? fail("Settled Amount");
  const transactionDate = fields.transactionDate ?? fail("Date");
  const status = zemenStatus(fields.status || fail("Transaction status"));
  const receipt: Receipt = {
    status,
    transactionType: fields.transactionType,
    amount,
    currency: "ETB",
    transactionDate,
    payerName: fields.payerName ?? "",
    payerAccount: fields.payerAccount ?? "",
    receiverName: fields.receiverName ?? "",
    receiverAccount: fields.receiverAccount ?? "",
    description: null,
  };
  return { receipt, reference: normalizeReference(fields.reference ?? "") };
}

/**
 * What the receipt's labels state, each value sliced by its label, for the bank's PDF and for a copy or
 * photo of it (which may miss some): the settled amount is looked for beside its label, under a
 * "Transaction Detail | Settled Amount" table header, and else worked out from the total.
 */
export function readZemenLabels(lines: readonly string[]) {
  const value = (key: LabelKey) => labelValue(lines, key);
  const detail = value("detail") ?? "";
  const settled = value("settled");
  return {
    amount:
      settledOnItsLine(lines) ??
      pureAmount(settled) ??
      rowAmount(settled) ??
      rowAmount(detail) ??
      amountFromTotal(value),
    transactionDate: zemenDate(value("date") ?? "") ?? zemenDate(lines.join("\n")),
    status: value("status"),
    transactionType: withoutAmount(detail),
    payerName: value("payerName"),
    payerAccount: value("payerAccount"),
    receiverName: value("recipientName"),
    receiverAccount: value("recipientAccount"),
    reference: value("reference"),
  };
}

/** weak (docs/banks.md §2.6): the status wording is unknown; success-like words mean a completed transfer. */
export function zemenStatus(text: string): string {
  return /^(?:success(?:ful)?|completed?|approved)$/i.test(text) ? "completed" : text.toLowerCase();
}

// weak: without a readable Settled Amount, Total Amount Paid minus Service Charge and VAT is the same figure.
function amountFromTotal(value: (key: LabelKey) => string | undefined): number | null {
  const total = pureAmount(value("total"));
  const charge = pureAmount(value("serviceCharge"));
  const vat = pureAmount(value("vat"));
  if (total === null || charge === null || vat === null) return null;
  const settled = Math.round((total - charge - vat) * 100) / 100;
  return settled > 0 ? settled : null;
}

// --- internal helpers ---

/** Tokens are opaque: no case change, since nothing says the share service ignores case. */
function normalizeReference(raw: string): string {
  return raw.trim();
}

function tokenOf(target: { transactionNumber: string; token: string | null }): string {
  return normalizeReference(target.token ?? target.transactionNumber);
}

async function parseZemenResponse(response: BankResponse, token: string): Promise<LookupOutcome> {
  if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
  const { body } = response;
  if (response.status === 200 && isPdf(body)) {
    const { receipt, reference } = readZemenReceiptText(await readPdfText(BANK, body));
    return foundByToken(receipt, reference, token);
  }
  const raw = body.toString("utf8");
  // Miss: HTTP 404 {"messages":"Transaction not found.","status":"404"}; expired links say "link has expired".
  if (/transaction not found|expired/i.test(raw) || (response.status === 404 && isJsonMessage(raw))) {
    return { kind: "not_found" };
  }
  throw new ReceiptFormatError(
    BANK,
    `Unexpected answer from Zemen (HTTP ${response.status}).`,
    raw.slice(0, 200),
  );
}

function isJsonMessage(raw: string): boolean {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === "object" && parsed !== null && ("messages" in parsed || "message" in parsed);
  } catch {
    return false;
  }
}

/** Value after a label: rest of its line (pdf-parse glues label and value), else the next line. */
export function labelValue(lines: readonly string[], key: LabelKey): string | undefined {
  return readInlineLabel(lines, LABEL_PATTERNS, key, { linesBelow: 1 });
}

const AMOUNT = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const PURE_AMOUNT = new RegExp(String.raw`^(?:ETB|Birr|Br)?\s*(${AMOUNT})\s*(?:ETB|Birr|Br)?$`, "i");
const MARKED_AMOUNT = new RegExp(String.raw`(?:ETB|Birr)\s*(${AMOUNT})|(${AMOUNT})\s*(?:ETB|Birr)`, "gi");
// Only a currency-marked or two-decimal figure is an amount; "Transfer to 1000123" keeps its account digits.
const TRAILING_AMOUNT = new RegExp(
  String.raw`\s*(?:(?:ETB|Birr)\s*(?:${AMOUNT})|(?:${AMOUNT})\s*(?:ETB|Birr)|\d[\d,]*\.\d{2})$`,
  "i",
);

/**
 * "Settled Amount 1,600.00" on one line. The table's heading "Description  Settled Amount" comes first and
 * its value is the row below, which a photo may cut short ("FUND TRANSFER ETB 4!"): the labelled figure wins.
 */
export function settledOnItsLine(lines: readonly string[]): number | null {
  for (const line of lines) {
    const amount = pureAmount(SETTLED_ON_ITS_LINE.exec(line)?.[1]);
    if (amount !== null) return amount;
  }
  return null;
}

export function pureAmount(text: string | undefined): number | null {
  const match = text ? PURE_AMOUNT.exec(text) : null;
  return match?.[1] ? parseAmount(match[1]) : null;
}

/** The amount in a table row such as "ATM CASH WITHDRAWAL ETB 1,600.00": the last currency-marked figure. */
export function rowAmount(text: string | undefined): number | null {
  if (!text) return null;
  const marked = [...text.matchAll(MARKED_AMOUNT)].at(-1);
  const figure = marked
    ? (marked[1] ?? marked[2])
    : /(\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})\s*$/.exec(text)?.[1];
  return figure ? parseAmount(figure) : null;
}

export function withoutAmount(detail: string): string {
  return detail.replace(TRAILING_AMOUNT, "").trim();
}

/** "29-Jun-2025, 10:55:59 am", "29-Jun-2025", or a 24-hour "29-Jun-2025, 14:05:09" (docs/banks.md §1.6). */
export function zemenDate(text: string): string | null {
  const m =
    /(\d{1,2})-([A-Za-z]{3,9})-(\d{4})(?:,?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s*m\b\.?)?)?/i.exec(
      text,
    );
  const month = m?.[2] ? monthNumber(m[2]) : null;
  if (!m || month === null) return null;
  const hour = to24Hour(Number(m[4] ?? 0), m[7] ? `${m[7]}m` : undefined);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return addisIso({ year: Number(m[3]), month, day: Number(m[1]), hour, minute, second });
}
