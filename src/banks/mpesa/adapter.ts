import { addisIso, answerText, isPdf, parseAmount, queryValue } from "../../reading/parse-utils.js";
import { plainLines, readInlineLabel, readPdfText } from "../../reading/pdf-labels.js";
import type { BankCode } from "../codes.js";
import {
  ACCEPT_JSON,
  type BankOptions,
  bankNetwork,
  DESKTOP_USER_AGENT,
  isPlainHttps,
  normalizeAccount,
  referenceProblem,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByReference } from "../reference.js";
import type { BankAdapter, BankResponse, LookupOutcome, Receipt, ShareLink } from "../types.js";
import { FEE_BEFORE_LABEL, LABEL_PATTERNS, type MpesaLabel } from "./labels.js";

const BANK = "mpesa" as const satisfies BankCode;
export const HOST = "m-pesabusiness.safaricom.et";
/** 10 upper-case letters and digits, at least one letter (a phone number is not a transaction number). */
const REFERENCE = /^(?=[A-Z0-9]*[A-Z])[A-Z0-9]{10}$/;

export type MpesaOptions = BankOptions;

export function createMpesaAdapter(options: MpesaOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [`${HOST}:443`],
    // The answer carries the receipt PDF, so it gets the PDF budget (docs/banks.md §1.4).
    network: bankNetwork({ timeoutMs: 25_000 }, options.network),
    normalizeReference,
    normalizeAccount,
    validate: (target) =>
      referenceProblem(
        normalizeReference(target.transactionNumber),
        REFERENCE,
        "M-Pesa",
        "10 letters and digits, e.g. UGO4D2CODA",
      ),
    parseShareUrl(url) {
      if (!isPlainHttps(url) || url.hostname !== HOST) return null;
      // Paths and the query name in any case: phones autocorrect and people retype links.
      const share = /^\/receipt\/([A-Za-z0-9]{1,40})\/?$/i.exec(url.pathname)?.[1];
      // The data API URL itself is also accepted, since integrators sometimes copy it from the browser.
      const api = /^\/api\/receipt\/getReceipt\/?$/i.test(url.pathname) ? queryValue(url, "trxNo") : null;
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
          Accept: ACCEPT_JSON,
          Referer: `https://${HOST}/`,
        },
      };
    },
    parseResponse: (response, target) =>
      parseMpesaResponse(response, normalizeReference(target.transactionNumber)),
  };
}

/** Reads the text of the receipt PDF (as pdf-parse emits it) into a Receipt. */
export function parseMpesaReceiptText(text: string): Receipt {
  return readMpesaReceiptText(text).receipt;
}

/** The receipt and its TRANSACTION ID (the code of the SMS; RECEIPT NO is an internal number). */
export function readMpesaReceiptText(text: string): { receipt: Receipt; reference: string } {
  const lines = plainLines(text);
  const flat = lines.join("\n");
  const value = (key: MpesaLabel) => labelValue(lines, key);
  const fail = (what: string): never => {
    throw new ReceiptFormatError(BANK, `The M-Pesa receipt has no readable ${what}.`, flat.slice(0, 200));
  };

  const total = amountOf(value("total")) ?? fail("TOTAL");
  const serviceFee = mpesaFee(lines, "serviceFee") ?? fail("SERVICE FEE");
  const vat = mpesaFee(lines, "vat") ?? fail("15% VAT");
  // An AMOUNT line, where a receipt has one, is taken as printed; else TOTAL minus the fees.
  const amount = amountOf(value("amount")) ?? totalLessFees(total, serviceFee, vat);
  if (amount <= 0) fail("amount (TOTAL minus fees is not positive)");

  const transactionDate = mpesaDate(flat) ?? fail("date");
  const type = value("transactionType") || (TYPE_PHRASES.exec(flat)?.[0] ?? "");
  const receipt: Receipt = {
    status: "completed",
    transactionType: type,
    amount,
    currency: "ETB",
    transactionDate,
    payerName: value("payerName") ?? "",
    payerAccount: value("payerPhone") ?? "",
    receiverName: value("receiverName") ?? "",
    receiverAccount: value("receiverNumber") ?? "",
    description: null,
  };
  return { receipt, reference: normalizeReference(value("transactionId") ?? "") };
}

// --- internal helpers ---

function normalizeReference(raw: string): string {
  return raw.trim().toUpperCase();
}

async function parseMpesaResponse(response: BankResponse, requested: string): Promise<LookupOutcome> {
  if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
  const raw = answerText(response.body);
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
  if (!isPdf(pdf)) return fail("base64Data is not a PDF.");
  const { receipt, reference } = readMpesaReceiptText(await readPdfText(BANK, pdf));
  return foundByReference(BANK, receipt, reference, requested);
}

const TYPE_PHRASES =
  /\b(?:Send Money|Pay Merchant|Pay Bill|Buy Goods|Buy Airtime|Buy Bundle|Withdraw(?:al)?)\b/i;
const ETHIOPIC = /[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f]+/g;
// The Amharic half drawn with a font that lacks Ethiopic glyphs comes out as lone characters ("è p @ c é 5").
const MANGLED_RUN = /(?<=^|\s)(?:\S\s+){2,}\S(?=\s|$)/g;

/** Amharic halves, real or drawn with a font that lacks Ethiopic glyphs, are not part of a value. */
function dropAmharic(text: string): string {
  return text.replace(ETHIOPIC, " ").replace(MANGLED_RUN, (run) => (/[^A-Za-z0-9\s]/.test(run) ? " " : run));
}

/** Value after a label: rest of its line (pdf-parse glues label and value), else the next two lines. */
export function labelValue(lines: readonly string[], key: MpesaLabel): string | undefined {
  return readInlineLabel(lines, LABEL_PATTERNS, key, { linesBelow: 2, scrub: dropAmharic });
}

function amountOf(text: string | undefined): number | null {
  return text ? parseAmount(text) : null;
}

/**
 * A fee: printed before its label in the real layout ("1.00 Birr / SERVICE FEE"), else after it; 0 when
 * the receipt lists none, null when its figure is unreadable.
 */
export function mpesaFee(lines: readonly string[], key: keyof typeof FEE_BEFORE_LABEL): number | null {
  const leading = FEE_BEFORE_LABEL[key].exec(lines.join("\n"))?.[1];
  if (leading) return parseAmount(leading);
  const after = labelValue(lines, key);
  if (after === undefined) return 0;
  return amountOf(after);
}

/**
 * weak (docs/banks.md §2.8): the labels known show no transferred amount, only TOTAL with SERVICE FEE and 15%
 * VAT listed apart, so the amount is TOTAL minus both (TOTAL itself for fee-free sends).
 */
export function totalLessFees(total: number, serviceFee: number, vat: number): number {
  return Math.round((total - serviceFee - vat) * 100) / 100;
}

/** The receipt's date, "2026-07-24 11:53:02" (Addis Ababa time). */
export function mpesaDate(text: string): string | null {
  const date = /(\d{4})-(\d{1,2})-(\d{1,2})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(text);
  if (!date) return null;
  return addisIso({
    year: Number(date[1]),
    month: Number(date[2]),
    day: Number(date[3]),
    hour: Number(date[4]),
    minute: Number(date[5]),
    second: Number(date[6] ?? 0),
  });
}
