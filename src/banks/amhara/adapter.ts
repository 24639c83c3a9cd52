import { addisIso, answerText, isRecord, parseAmount, queryValue } from "../../reading/parse-utils.js";
import type { BankCode } from "../codes.js";
import {
  ACCEPT_JSON,
  type BankOptions,
  bankNetwork,
  isPlainHttps,
  MOBILE_USER_AGENT,
  normalizeAccount,
  referenceProblem,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByReference } from "../reference.js";
import type { BankAdapter, BankResponse, LookupTarget, Receipt } from "../types.js";
import { type AmharaField, FIELDS, WHOLE_KEY } from "./labels.js";

const BANK = "amhara" as const satisfies BankCode;

const RECEIPT_HOST = "receipt.amharabank.com.et";
const API_HOST = "transaction.amharabank.com.et";
/** The share page's host and the API's (whose path links are shared too). */
export const HOSTS: readonly string[] = [RECEIPT_HOST, API_HOST];

/** FT + YYDDD + 5 letters/digits (T24 layout, docs/banks.md §1.1). */
const REFERENCE = /^FT\d{5}[A-Z0-9]{5}$/;

export type AmharaOptions = BankOptions;

export function createAmharaAdapter(options: AmharaOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? MOBILE_USER_AGENT;

  return {
    code: BANK,
    origins: [`${RECEIPT_HOST}:443`, `${API_HOST}:443`],
    network: bankNetwork({}, options.network),
    normalizeReference,
    normalizeAccount,

    validate: (target) =>
      referenceProblem(referenceOf(target), REFERENCE, "Amhara Bank", "FT followed by 10 letters and digits"),

    parseShareUrl(url) {
      if (!isPlainHttps(url)) return null;
      let raw: string | null = null;
      if (url.hostname === RECEIPT_HOST && url.pathname === "/") raw = queryValue(url, "trx");
      if (url.hostname === API_HOST) raw = /^\/([A-Za-z0-9]+)\/?$/.exec(url.pathname)?.[1] ?? null;
      if (!raw || !/^[A-Za-z0-9]+$/.test(raw.trim())) return null;
      return { transactionNumber: normalizeReference(raw), accountNumber: null, token: null };
    },

    buildRequest(target) {
      return {
        url: `https://${API_HOST}/${encodeURIComponent(referenceOf(target))}`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: ACCEPT_JSON },
      };
    },

    async parseResponse(response, target) {
      // Checked before the 5xx rule: the 500 `{status:false}` is a definitive miss, so it is not retried.
      if (isMissAnswer(response)) return { kind: "not_found" };
      if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
      // An unknown path is an Express-style 404; the API itself answers misses with 500 (handled above).
      if (response.status === 404) return { kind: "not_found" };
      if (response.status !== 200) {
        throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status} from the transaction API`);
      }
      const body = readJson(response);
      if (!isRecord(body) || !flag(body.status, true) || !isRecord(body.data)) {
        throw new ReceiptFormatError(
          BANK,
          "The transaction API answer has no data record",
          snippet(response),
        );
      }
      // The record must name its transaction: a record without one is not trusted for the one asked for.
      const shown = normalizeReference(pick(body.data, "reference"));
      if (!shown) throw new ReceiptFormatError(BANK, "The record has no transactionReference");
      return foundByReference(BANK, toReceipt(body.data), shown, referenceOf(target));
    },
  };
}

// --- internal helpers ---

type Json = Record<string, unknown>;

function normalizeReference(raw: string): string {
  return raw.trim().toUpperCase();
}

function referenceOf(target: LookupTarget): string {
  return normalizeReference(target.token ?? target.transactionNumber);
}

function readJson(response: BankResponse): unknown {
  try {
    return JSON.parse(answerText(response.body));
  } catch {
    return undefined;
  }
}

/** `status` as the boolean docs/banks.md shows, or the same word as a string. */
function flag(value: unknown, expected: boolean): boolean {
  return value === expected || (typeof value === "string" && value.trim().toLowerCase() === String(expected));
}

function snippet(response: BankResponse): string {
  return response.body.toString("utf8").slice(0, 200);
}

/** Unknown references and in-app transfers without a web receipt: `{status:false, message}` (HTTP 500). */
function isMissAnswer(response: BankResponse): boolean {
  const body = readJson(response);
  return isRecord(body) && flag(body.status, false);
}

/**
 * A field's first non-empty value, under its labels (labels.ts) in their order of preference: the API's
 * keys vary with the transfer direction.
 */
function pick(data: Json, field: AmharaField): string {
  for (const label of FIELDS[field]) {
    for (const [key, value] of Object.entries(data)) {
      if (!WHOLE_KEY[label].test(key)) continue;
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      if (typeof value === "string" && value.trim()) return value.trim();
    }
  }
  return "";
}

function toReceipt(data: Json): Receipt {
  // The total ("ETB5036.00") stands in only for a record that shows no fee.
  const amountText = transferredAmount(pick(data, "amount"), pick(data, "total"), showsFee(data)) ?? "";
  const amount = amountText ? parseAmount(amountText) : null;
  if (amount === null) throw new ReceiptFormatError(BANK, "The record has no readable amount");

  const transactionDate = readDate(pick(data, "date"), pick(data, "bookingDate"));
  if (!transactionDate)
    throw new ReceiptFormatError(BANK, "The record has no readable dateTime or bookingDate");

  const currency = pick(data, "currency") || /^[A-Z]{3}/.exec(amountText)?.[0] || "ETB";

  // Which side each key names: FIELDS in labels.ts.
  return {
    status: readStatus(pick(data, "status")),
    amount,
    currency,
    transactionDate,
    payerName: pick(data, "payerName"),
    payerAccount: pick(data, "payerAccount"),
    receiverName: pick(data, "receiverName"),
    receiverAccount: pick(data, "receiverAccount"),
    description: pick(data, "description") || null,
  };
}

/**
 * `amount` is the transferred sum; the total adds fees and VAT (docs/banks.md §1.5: match the transferred
 * amount), so it stands in only where no fee is shown. The receipt reader takes the same figure.
 */
export function transferredAmount(
  amount: string | undefined,
  total: string | undefined,
  feeShown: boolean,
): string | undefined {
  return amount || (feeShown ? undefined : total) || undefined;
}

/** A positive charge, tax or fee field (netChargeAmount "ETB30", drChargeAmount, taxAmount…). */
function showsFee(data: Json): boolean {
  return Object.entries(data).some(([key, value]) => {
    if (!/charge|tax|fee|vat|commission/i.test(key)) return false;
    const figure = typeof value === "number" ? value : typeof value === "string" ? parseAmount(value) : null;
    return figure !== null && figure > 0;
  });
}

/** `dateTime` is yyMMddHHmm in Addis time; `bookingDate` (yyyyMMdd) is the day the core booked it. */
function readDate(dateTime: string, bookingDate: string): string | null {
  const dt = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(dateTime);
  if (dt) {
    const [year, month, day, hour, minute] = dt.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (validDay(month, day) && hour < 24 && minute < 60) return addisIso({ year, month, day, hour, minute });
  }
  const bd = /^(\d{4})(\d{2})(\d{2})$/.exec(bookingDate);
  if (bd) {
    const [year, month, day] = bd.slice(1).map(Number) as [number, number, number];
    if (validDay(month, day)) return addisIso({ year, month, day });
  }
  return null;
}

function validDay(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// weak (docs/banks.md §2.10): one client accepts only "MAT", another only "Auth"; both are read as completed
// until real samples settle it. Anything else stays visible (lowercase) and is not a confirmed transfer.
export function readStatus(status: string): string {
  const lower = status.toLowerCase();
  return lower === "mat" || lower === "auth" ? "completed" : lower;
}
