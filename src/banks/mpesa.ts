import { extractPdfText, UnreadablePdfError } from "../receipts/pdf-text.js";
import type { BankCode } from "./codes.js";
import { BankUnavailableError, ReceiptFormatError } from "./errors.js";
import { addisIso, parseAmount } from "./parse-utils.js";
import type { BankAdapter, BankNetwork, BankResponse, LookupOutcome, Receipt, ShareLink } from "./types.js";

const BANK = "mpesa" as const satisfies BankCode;
const HOST = "m-pesabusiness.safaricom.et";
const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

export interface MpesaOptions {
  /** Overrides of the banks.md network defaults (25 s for the PDF-carrying answer, 2 retries, 800 ms backoff). */
  network?: Partial<BankNetwork>;
  /** Browser User-Agent sent with every lookup. */
  userAgent?: string;
}

export function createMpesaAdapter(options: MpesaOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const normalizeReference = (raw: string) => raw.trim().toUpperCase();
  return {
    code: BANK,
    origins: [`${HOST}:443`],
    network: {
      timeoutMs: 25_000,
      connectTimeoutMs: 10_000,
      retries: 2,
      backoffMs: 800,
      insecureTlsOrigins: [],
      ...options.network,
    },
    normalizeReference,
    normalizeAccount: (raw) => raw.replace(/[\s-]/g, ""),
    validate(target) {
      const reference = normalizeReference(target.transactionNumber);
      if (!reference) {
        return {
          field: "transaction_number",
          message: "The transaction number field is required for M-Pesa.",
        };
      }
      if (!/^[A-Z0-9]{10}$/.test(reference) || !/[A-Z]/.test(reference)) {
        return {
          field: "transaction_number",
          message:
            "The transaction number format is invalid for M-Pesa (expected 10 letters and digits, e.g. UGO4D2CODA).",
        };
      }
      return null;
    },
    parseShareUrl(url) {
      if (url.protocol !== "https:" || url.username || url.password || url.port !== "") return null;
      if (url.hostname !== HOST) return null;
      const share = /^\/receipt\/([A-Za-z0-9]{1,40})\/?$/.exec(url.pathname)?.[1];
      // The data API URL itself is also accepted, since integrators sometimes copy it from the browser.
      const api = /^\/api\/receipt\/getReceipt\/?$/.test(url.pathname) ? url.searchParams.get("trxNo") : null;
      const reference = share ?? (api && /^[A-Za-z0-9]{1,40}$/.test(api) ? api : null);
      if (!reference) return null;
      return {
        transactionNumber: normalizeReference(reference),
        accountNumber: null,
        token: null,
      } satisfies ShareLink;
    },
    buildRequest(target) {
      const reference = normalizeReference(target.transactionNumber);
      return {
        url: `https://${HOST}/api/receipt/getReceipt?trxNo=${encodeURIComponent(reference)}`,
        method: "GET",
        headers: {
          "User-Agent": userAgent,
          Accept: "application/json, text/plain, */*",
          Referer: `https://${HOST}/`,
        },
      };
    },
    parseResponse: (response) => parseMpesaResponse(response),
  };
}

/** Reads the text of the receipt PDF (as pdf-parse emits it) into a Receipt. */
export function parseMpesaReceiptText(text: string): Receipt {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const flat = lines.join("\n");
  const value = (key: LabelKey) => labelValue(lines, key);
  const fail = (what: string): never => {
    throw new ReceiptFormatError(BANK, `The M-Pesa receipt has no readable ${what}.`, flat.slice(0, 200));
  };

  const total = amountOf(value("total")) ?? fail("TOTAL");
  const serviceFee =
    feeOf(flat, "serviceFee", /([\d,]+(?:\.\d+)?)\s*(?:Birr|ETB)?\s*\/\s*SERVICE FEE/i) ??
    fail("SERVICE FEE");
  const vat =
    feeOf(flat, "vat", /([\d,]+(?:\.\d+)?)\s*(?:Birr|ETB)?\s*\+\s*15\s*%\s*VAT/i) ?? fail("15% VAT");
  // weak (banks.md §2.8): the labels known show no transferred amount, only TOTAL with SERVICE FEE and
  // 15% VAT listed apart, so the amount is TOTAL minus both (TOTAL itself for fee-free sends). An AMOUNT
  // line, where a receipt has one, is taken as printed.
  const amount = amountOf(value("amount")) ?? Math.round((total - serviceFee - vat) * 100) / 100;
  if (amount <= 0) fail("amount (TOTAL minus fees is not positive)");

  const date = /(\d{4})-(\d{1,2})-(\d{1,2})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(flat) ?? fail("date");
  const type = value("transactionType") || (TYPE_PHRASES.exec(flat)?.[0] ?? "");
  return {
    status: "completed",
    transactionType: type,
    amount,
    currency: "ETB",
    transactionDate: addisIso({
      year: Number(date[1]),
      month: Number(date[2]),
      day: Number(date[3]),
      hour: Number(date[4]),
      minute: Number(date[5]),
      second: Number(date[6] ?? 0),
    }),
    payerName: value("payerName") ?? "",
    payerAccount: value("payerPhone") ?? "",
    receiverName: value("receiverName") ?? "",
    receiverAccount: value("receiverNumber") ?? "",
    description: null,
  };
}

// --- internal helpers ---

async function parseMpesaResponse(response: BankResponse): Promise<LookupOutcome> {
  if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
  const raw = response.body.toString("utf8").replace(/^\uFEFF/, "");
  const fail = (message: string): never => {
    throw new ReceiptFormatError(BANK, message, raw.slice(0, 200));
  };
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    fail(`Expected JSON from the M-Pesa receipt API (HTTP ${response.status}).`);
  }
  if (typeof payload !== "object" || payload === null || !("responseCode" in payload)) {
    return fail("The M-Pesa answer has no responseCode.");
  }
  const { responseCode, base64Data } = payload as { responseCode: unknown; base64Data?: unknown };
  if (String(responseCode).trim() !== "0") return { kind: "not_found" };
  if (typeof base64Data !== "string" || !base64Data.trim())
    return fail("The M-Pesa answer has no base64Data.");

  const pdf = Buffer.from(base64Data.replace(/^data:[^,]*,/, ""), "base64");
  if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") return fail("base64Data is not a PDF.");
  let text: string;
  try {
    text = await extractPdfText(pdf);
  } catch (error) {
    if (error instanceof UnreadablePdfError)
      return fail(`The M-Pesa receipt PDF is unreadable: ${error.message}`);
    throw error;
  }
  return { kind: "found", receipt: parseMpesaReceiptText(text) };
}

const LABELS = {
  payerName: /PAYER NAME/i,
  payerPhone: /PAYER PHONE (?:NUMBER|NO\.?)/i,
  receiverName: /RECEIVER (?:BUSINESS )?NAME/i,
  receiverNumber: /RECEIVER (?:PHONE )?(?:NUMBER|NO\.?)/i,
  transactionId: /TRANSACTION ID/i,
  transactionType: /TRANSACTION TYPE/i,
  receiptNo: /RECEIPT (?:NO\.?|NUMBER)/i,
  serviceFee: /SERVICE FEE/i,
  vat: /\+?\s*15\s*%\s*VAT|VAT\s*\(?15\s*%\)?/i,
  amount:
    /(?<![A-Za-z])(?<!TOTAL )(?:TRANSACTION |SENT |PAID )?AMOUNT(?![A-Za-z])(?=\s*:?\s*(?:ETB|Birr)?\s*[\d.,]+)/i,
  // Only a TOTAL followed by an amount (or nothing) is the label, not a merchant called "Total ...".
  total: /(?<![A-Za-z])TOTAL(?: AMOUNT)?(?![A-Za-z])(?=\s*:?\s*(?:ETB|Birr)?\s*[\d.,]+|\s*:?\s*$)/i,
  date: /\b(?:TRANSACTION |PAYMENT )?DATE\b/i,
} as const;
type LabelKey = keyof typeof LABELS;

const TYPE_PHRASES =
  /\b(?:Send Money|Pay Merchant|Pay Bill|Buy Goods|Buy Airtime|Buy Bundle|Withdraw(?:al)?)\b/i;
const ETHIOPIC = /[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f]+/g;
// The Amharic half drawn with a font that lacks Ethiopic glyphs comes out as lone characters ("è p @ c é 5").
const MANGLED_RUN = /(?<=^|\s)(?:\S\s+){2,}\S(?=\s|$)/g;

/** Text before the first other label on the line, without Amharic halves and separators. */
function cleanValue(text: string): string {
  let end = text.length;
  for (const pattern of Object.values(LABELS)) {
    const match = pattern.exec(text);
    if (match && match.index < end) end = match.index;
  }
  return text
    .slice(0, end)
    .replace(ETHIOPIC, " ")
    .replace(MANGLED_RUN, (run) => (/[^A-Za-z0-9\s]/.test(run) ? " " : run))
    .replace(/\s+/g, " ")
    .replace(/^[\s:/|]+|[\s:/|]+$/g, "");
}

/** Value after a label: rest of its line (pdf-parse glues label and value), else the next lines. */
function labelValue(lines: readonly string[], key: LabelKey): string | undefined {
  let found: string | undefined;
  for (const [i, line] of lines.entries()) {
    const match = LABELS[key].exec(line);
    if (!match) continue;
    const inline = cleanValue(line.slice(match.index + match[0].length));
    if (inline) return inline;
    found = "";
    for (const next of lines.slice(i + 1, i + 3)) {
      const startsWithLabel = Object.values(LABELS).some((pattern) => pattern.exec(next)?.index === 0);
      if (startsWithLabel) break;
      const below = cleanValue(next);
      if (below) return below;
    }
  }
  return found;
}

function amountOf(text: string | undefined): number | null {
  return text ? parseAmount(text) : null;
}

/** A fee: printed before its label in the real layout ("1.00 Birr / SERVICE FEE"), else after it; 0 when absent. */
function feeOf(flat: string, key: "serviceFee" | "vat", before: RegExp): number | null {
  const leading = before.exec(flat)?.[1];
  if (leading) return parseAmount(leading);
  const after = labelValue(flat.split("\n"), key);
  if (after === undefined) return 0;
  return amountOf(after);
}
