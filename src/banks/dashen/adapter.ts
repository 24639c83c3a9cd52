import { htmlPage } from "../../reading/html-page.js";
import { addisIso, isPdf, monthNumber, parseAmount, to24Hour } from "../../reading/parse-utils.js";
import { readPdfText } from "../../reading/pdf-labels.js";
import type { BankCode } from "../codes.js";
import {
  ACCEPT_HTML,
  type BankOptions,
  bankNetwork,
  DESKTOP_USER_AGENT,
  isPlainHttps,
  normalizeAccount,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByReference } from "../reference.js";
import type { BankAdapter, BankResponse, LookupOutcome, LookupTarget, Receipt, ShareLink } from "../types.js";
import { type Fields, sliceByLabels } from "./labels.js";

const BANK = "dashen" as const satisfies BankCode;
const RECEIPT_HOST = "receipts.dashenbanksc.com";
// Old share hosts: receipt.dashensuperapp.com now answers 502, api.dashensuperapp.com served PDFs.
// Both are only recognised in links and re-routed to RECEIPT_HOST, never fetched.
const LEGACY_RECEIPT_HOST = "receipt.dashensuperapp.com";
const LEGACY_PDF_HOST = "api.dashensuperapp.com";

/** 3-char branch/channel code + 4-letter type + YYDDD + 4 alnum, e.g. B22WDTI261620001. */
const FT_REF = /^[A-Z0-9]{3}[A-Z]{4}\d{5}[A-Z0-9]{4}$/;
/** The app's long "Transaction Ref" / "Transfer Reference" (OBTI28455679126320660525), which no endpoint resolves. */
const LONG_TRANSACTION_REF = /^[A-Z]{4}\d{12,}$/;
const EXAMPLE_REF = "822LTWS2622600WJ";

export type DashenOptions = BankOptions;

export function createDashenAdapter(options: DashenOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [`${RECEIPT_HOST}:443`, `${LEGACY_RECEIPT_HOST}:443`, `${LEGACY_PDF_HOST}:443`],
    network: bankNetwork({}, options.network),
    normalizeReference,
    normalizeAccount,
    validate(target) {
      const reference = normalizeReference(target.transactionNumber);
      if (!reference) {
        return {
          field: "transaction_number",
          message: "The transaction number field is required for Dashen Bank.",
        };
      }
      if (FT_REF.test(reference)) return null;
      if (LONG_TRANSACTION_REF.test(reference) || reference.length > 16) {
        return {
          field: "transaction_number",
          message: `This looks like the long Transaction Ref of the Dashen app, which cannot be checked. Use the 16-character FT Ref instead (e.g. ${EXAMPLE_REF}).`,
        };
      }
      return {
        field: "transaction_number",
        message: `The transaction number format is invalid for Dashen Bank. Use the 16-character FT Ref (e.g. ${EXAMPLE_REF}).`,
      };
    },
    parseShareUrl(url) {
      if (!isPlainHttps(url)) return null;
      const path = url.pathname;
      let match: RegExpExecArray | null = null;
      if (url.hostname === RECEIPT_HOST || url.hostname === LEGACY_RECEIPT_HOST) {
        match = /^\/receipt\/([A-Za-z0-9]{1,40})\/?$/.exec(path);
      } else if (url.hostname === LEGACY_PDF_HOST) {
        // weak (docs/banks.md §2.3): only "Within-Dashen-Transfer-{ref}.pdf" is attested; other service types
        // are assumed to be named the same way.
        match = /^\/receipts\/[A-Za-z]+(?:-[A-Za-z]+)*-([A-Za-z0-9]{1,40})\.pdf$/i.exec(path);
      }
      if (!match?.[1]) return null;
      return {
        transactionNumber: normalizeReference(match[1]),
        accountNumber: null,
        token: null,
      } satisfies ShareLink;
    },
    buildRequest(target) {
      return {
        url: `https://${RECEIPT_HOST}/receipt/${encodeURIComponent(normalizeReference(target.transactionNumber))}`,
        method: "GET",
        headers: {
          "User-Agent": userAgent,
          Accept: ACCEPT_HTML,
          "Accept-Language": "en-US,en;q=0.9",
        },
      };
    },
    parseResponse: parseDashenResponse,
  };
}

/** Interprets an answer of the receipt host: HTML receipt (or a PDF of the old template), or the 400 miss. */
export async function parseDashenResponse(
  response: BankResponse,
  target: LookupTarget,
): Promise<LookupOutcome> {
  if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
  const pdf = isPdf(response.body);
  const raw = pdf ? "" : response.body.toString("utf8");
  if (response.status !== 200) {
    // {"statusCode":400,"message":"Transaction not found"}; weak: a 404 saying so is read alike.
    if ((response.status === 400 || response.status === 404) && /not\s+found/i.test(raw)) {
      return { kind: "not_found" };
    }
    throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status}`, raw.slice(0, 200));
  }
  const text = pdf ? await readPdfText(BANK, response.body) : htmlPage(raw).lines().join("\n");
  const fields = sliceByLabels(text);
  if (fields.amount === undefined && /transaction not found/i.test(text)) return { kind: "not_found" };
  const receipt = toReceipt(fields, text);
  // The receipt's "Transaction Reference" is the 16-character FT Ref the lookup is made with.
  const shown = normalizeReference(fields.reference ?? "");
  return foundByReference(BANK, receipt, shown, normalizeReference(target.transactionNumber));
}

// --- internal helpers ---

/**
 * Pasted references often carry spaces or dashes, and a numeric branch code loses its leading zeros in a
 * spreadsheet (045WDTS… → 45WDTS…); check.et normalises both (docs/banks.md §3, Dashen guide).
 */
function normalizeReference(raw: string): string {
  const compact = raw.replace(/[\s-]/g, "").toUpperCase();
  return /^\d{1,2}[A-Z]{4}\d{5}[A-Z0-9]{4}$/.test(compact) ? compact.padStart(16, "0") : compact;
}

function toReceipt(fields: Fields, text: string): Receipt {
  const amount = parseAmount(fields.amount ?? "");
  if (amount === null)
    throw new ReceiptFormatError(BANK, "The receipt has no readable Transaction Amount.", text.slice(0, 200));
  const transactionDate = parseDashenDate(fields.date ?? "");
  if (!transactionDate)
    throw new ReceiptFormatError(BANK, "The receipt has no readable Transaction Date.", text.slice(0, 200));
  return {
    // The receipt host only serves posted transactions; it has no status field.
    status: "completed",
    ...(fields.serviceType ? { transactionType: fields.serviceType } : {}),
    amount,
    currency: "ETB",
    transactionDate,
    payerName: fields.payerName ?? "",
    payerAccount: fields.payerAccount ?? "",
    receiverName: fields.receiverName ?? "",
    // Wallet transfers (to telebirr) print the receiver's phone instead of an account.
    receiverAccount: fields.receiverAccount || fields.phone || "",
    description: fields.narrative ?? null,
  };
}

/** "Jun 11, 2026, 08:45:50 am"; the SMS form "2026-06-18 10:23:00" is accepted too. */
export function parseDashenDate(text: string): string | null {
  const named =
    /([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})(?:,?\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?)?/.exec(
      text,
    );
  if (named) {
    const month = monthNumber(named[1] ?? "");
    if (month === null) return null;
    const meridiem = named[7] ? `${named[7]}m` : undefined;
    return addisIso({
      year: Number(named[3]),
      month,
      day: Number(named[2]),
      hour: to24Hour(Number(named[4] ?? 0), meridiem),
      minute: Number(named[5] ?? 0),
      second: Number(named[6] ?? 0),
    });
  }
  const iso = /(\d{4})-(\d{2})-(\d{2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  if (!iso) return null;
  return addisIso({
    year: Number(iso[1]),
    month: Number(iso[2]),
    day: Number(iso[3]),
    hour: Number(iso[4] ?? 0),
    minute: Number(iso[5] ?? 0),
    second: Number(iso[6] ?? 0),
  });
}
