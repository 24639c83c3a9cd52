import type { BankCode } from "./codes.js";
import { BankUnavailableError, ReceiptFormatError } from "./errors.js";
import { addisIso, parseAmount } from "./parse-utils.js";
import type {
  BankAdapter,
  BankNetwork,
  BankRequest,
  BankResponse,
  InputProblem,
  LookupOutcome,
  LookupTarget,
  Receipt,
  ShareLink,
} from "./types.js";

const BANK = "amhara" as const satisfies BankCode;

const RECEIPT_HOST = "receipt.amharabank.com.et";
const API_HOST = "transaction.amharabank.com.et";
const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36";

/** FT + YYDDD + 5 letters/digits (T24 layout, banks.md §1.1). */
const REFERENCE = /^FT\d{5}[A-Z0-9]{5}$/;

export interface AmharaOptions {
  /** Timeouts and retries; banks.md §1.4 defaults are used for missing fields. */
  network?: Partial<BankNetwork>;
  /** User-Agent sent to the transaction API (every known client sends a browser one). */
  userAgent?: string;
}

export function createAmharaAdapter(options: AmharaOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const normalizeReference = (raw: string) => raw.trim().toUpperCase();

  return {
    code: BANK,
    origins: [`${RECEIPT_HOST}:443`, `${API_HOST}:443`],
    network: {
      timeoutMs: 15_000,
      connectTimeoutMs: 10_000,
      retries: 2,
      backoffMs: 800,
      insecureTlsOrigins: [],
      ...options.network,
    },
    normalizeReference,
    normalizeAccount: (raw) => raw.replace(/[\s-]/g, ""),

    validate(target: LookupTarget): InputProblem | null {
      const reference = normalizeReference(target.token ?? target.transactionNumber);
      if (!reference) {
        return { field: "transaction_number", message: "The transaction number field is required." };
      }
      if (!REFERENCE.test(reference)) {
        return {
          field: "transaction_number",
          message:
            "The transaction number format is invalid for Amhara Bank (expected FT followed by 10 letters and digits).",
        };
      }
      return null;
    },

    parseShareUrl(url: URL): ShareLink | null {
      if (url.protocol !== "https:" || url.port !== "" || url.username || url.password) return null;
      let raw: string | null = null;
      if (url.hostname === RECEIPT_HOST && url.pathname === "/") raw = url.searchParams.get("trx");
      if (url.hostname === API_HOST) raw = /^\/([A-Za-z0-9]+)\/?$/.exec(url.pathname)?.[1] ?? null;
      if (!raw || !/^[A-Za-z0-9]+$/.test(raw.trim())) return null;
      return { transactionNumber: normalizeReference(raw), accountNumber: null, token: null };
    },

    buildRequest(target: LookupTarget): BankRequest {
      const reference = normalizeReference(target.token ?? target.transactionNumber);
      return {
        url: `https://${API_HOST}/${encodeURIComponent(reference)}`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: "application/json, text/plain, */*" },
      };
    },

    async parseResponse(response: BankResponse, target: LookupTarget): Promise<LookupOutcome> {
      // Checked before the 5xx rule: the 500 `{status:false}` is a definitive miss, so it is not retried.
      if (isMissAnswer(response)) return { kind: "not_found" };
      if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
      // An unknown path is an Express-style 404; the API itself answers misses with 500 (handled above).
      if (response.status === 404) return { kind: "not_found" };
      if (response.status !== 200) {
        throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status} from the transaction API`);
      }
      const body = readJson(response);
      if (!isRecord(body) || body.status !== true || !isRecord(body.data)) {
        throw new ReceiptFormatError(
          BANK,
          "The transaction API answer has no data record",
          snippet(response),
        );
      }
      const expected = normalizeReference(target.token ?? target.transactionNumber);
      return { kind: "found", receipt: toReceipt(body.data, expected) };
    },
  };
}

// --- internal helpers ---

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readJson(response: BankResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

function snippet(response: BankResponse): string {
  return response.body.toString("utf8").slice(0, 200);
}

/** Unknown references and in-app transfers without a web receipt: `{status:false, message}` (HTTP 500). */
function isMissAnswer(response: BankResponse): boolean {
  const body = readJson(response);
  return isRecord(body) && body.status === false;
}

/** The first non-empty value among keys; the API's keys vary with the transfer direction. */
function pick(data: Json, ...keys: string[]): string {
  for (const key of keys) {
    const value = data[key];
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return "";
}

function toReceipt(data: Json, expectedReference: string): Receipt {
  const reference = pick(data, "transactionReference").toUpperCase();
  if (!reference) throw new ReceiptFormatError(BANK, "The record has no transactionReference");
  if (reference !== expectedReference) {
    throw new ReceiptFormatError(BANK, `The record is for ${reference}, not ${expectedReference}`);
  }

  // `amount` is the transferred sum; `totalAmount` ("ETB5036.00") adds fees and VAT, so it is a fallback only.
  const amountText = pick(data, "amount") || pick(data, "totalAmount");
  const amount = amountText ? parseAmount(amountText) : null;
  if (amount === null) throw new ReceiptFormatError(BANK, "The record has no readable amount");

  const transactionDate = readDate(pick(data, "dateTime"), pick(data, "bookingDate"));
  if (!transactionDate)
    throw new ReceiptFormatError(BANK, "The record has no readable dateTime or bookingDate");

  const currency = pick(data, "currencyId") || /^[A-Z]{3}/.exec(amountText)?.[0] || "ETB";

  // Outgoing transfers name the real payer in debitor*/debit* and the real payee in receiver*/reveiver*,
  // while creditor*/creditAccountId hold the settlement account; incoming ones mirror that (sendor* real,
  // debitorName "A2A Transfer - ETH Incoming"). So the sendor*/receiver* keys win when both are present.
  return {
    status: readStatus(pick(data, "status")),
    amount,
    currency,
    transactionDate,
    payerName: pick(data, "sendorName", "senderName", "debitorName", "debtorName"),
    payerAccount: pick(data, "sendorAccount", "senderAccount", "debitAccount", "debitAccountId"),
    receiverName: pick(data, "receiverName", "reveiverName", "creditorName"),
    receiverAccount: pick(data, "reveiverAccount", "receiverAccount", "creditAccountId", "creditAccount"),
    description: pick(data, "transactionDesc") || null,
  };
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

// weak (banks.md §2.10): one client accepts only "MAT", another only "Auth"; both are read as completed
// until real samples settle it. Anything else stays visible (lowercase) and is not a confirmed transfer.
function readStatus(status: string): string {
  const lower = status.toLowerCase();
  return lower === "mat" || lower === "auth" ? "completed" : lower;
}
