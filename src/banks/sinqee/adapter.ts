import { type HtmlPage, htmlPage } from "../../reading/html-page.js";
import { parseAmount } from "../../reading/parse-utils.js";
import type { BankCode } from "../codes.js";
import {
  ACCEPT_HTML,
  type BankOptions,
  bankNetwork,
  isPlainHttps,
  MOBILE_USER_AGENT,
  normalizeAccount,
  referenceProblem,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { anotherTransaction } from "../reference.js";
import type { BankAdapter, LookupTarget, Receipt } from "../types.js";
import { type Field, htmlPairs, parseReceiptDate, readStatusWords } from "./parse.js";

const BANK = "sinqee" as const satisfies BankCode;

const RECEIPT_HOST = "siinqeebank.com";
const LEGACY_EBIRR_HOST = "receipt.ebirr.com";

// weak (docs/banks.md §2.9): the reference shape is unknown. The one example is an FT reference
// (FT262507XG9T, case-insensitive as every T24 bank's), the form a typed reference must have; links may carry
// a token of unknown shape (the older eBirr ones), passed on as printed: the bank says whether it exists. A
// typed reference of any shape would make Siinqee a candidate for every bare reference (docs/banks.md §1.2).
const FT_REFERENCE = /^FT[A-Z0-9]{10}$/i;
const LINK_TOKEN = /^[A-Za-z0-9]{6,40}$/;

export type SinqeeOptions = BankOptions;

export function createSinqeeAdapter(options: SinqeeOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? MOBILE_USER_AGENT;

  return {
    code: BANK,
    origins: [`${RECEIPT_HOST}:443`, `${LEGACY_EBIRR_HOST}:443`],
    network: bankNetwork({}, options.network),
    normalizeReference,
    normalizeAccount,

    validate: (target) =>
      target.token
        ? referenceProblem(target.token, LINK_TOKEN, "Siinqee Bank", "the token of the receipt link")
        : referenceProblem(
            referenceOf(target),
            FT_REFERENCE,
            "Siinqee Bank",
            "an FT reference such as FT262507XG9T, or the receipt link",
          ),

    parseShareUrl(url) {
      if (!isPlainHttps(url)) return null;
      let raw: string | undefined;
      if (url.hostname === RECEIPT_HOST) raw = /^\/receipt\/([A-Za-z0-9]+)\/?$/i.exec(url.pathname)?.[1];
      // The eBirr route is dead (404 "Cannot GET /siinqee/..." in Oct 2026); its token is looked up on the
      // bank's own host instead, as the app that observed the move does.
      if (url.hostname === LEGACY_EBIRR_HOST) raw = /^\/siinqee\/([A-Za-z0-9]+)\/?$/i.exec(url.pathname)?.[1];
      if (!raw) return null;
      const reference = normalizeReference(raw);
      const token = FT_REFERENCE.test(reference) ? null : reference;
      return { transactionNumber: reference, accountNumber: null, token };
    },

    buildRequest(target) {
      return {
        url: `https://${RECEIPT_HOST}/receipt/${encodeURIComponent(referenceOf(target))}`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: ACCEPT_HTML },
      };
    },

    async parseResponse(response, target) {
      if (response.status === 404) return { kind: "not_found" };
      if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
      if (response.status !== 200) {
        throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status} from the receipt page`);
      }
      const html = response.body.toString("utf8");
      const page = htmlPage(html);
      if (isNotFoundPage(page)) return { kind: "not_found" };
      const type = response.headers["content-type"] ?? "";
      if (type && !/html/i.test(type)) {
        throw new ReceiptFormatError(BANK, `Unexpected content type ${type}`, html.slice(0, 200));
      }
      const reference = referenceOf(target);
      return { kind: "found", receipt: toReceipt(page, html, reference), reference };
    },
  };
}

// --- internal helpers ---

/** FT references are case-insensitive; a token of unknown shape keeps its case. */
function normalizeReference(raw: string): string {
  const reference = raw.trim();
  return FT_REFERENCE.test(reference) ? reference.toUpperCase() : reference;
}

function referenceOf(target: LookupTarget): string {
  return normalizeReference(target.token ?? target.transactionNumber);
}

/** eBirr-platform miss page (red "Not Found Page" heading) or a plain "receipt not found" message. */
function isNotFoundPage(page: HtmlPage): boolean {
  const text = page.text();
  return (
    /not found page/i.test(text) || /\b(receipt|transaction|record)\s+(was\s+)?not\s+found\b/i.test(text)
  );
}

function toReceipt(page: HtmlPage, html: string, expectedReference: string): Receipt {
  const values = htmlPairs(page);
  const first = (field: Field) => values.get(field)?.[0] ?? "";
  const fail = (message: string): never => {
    throw new ReceiptFormatError(BANK, message, html.slice(0, 200));
  };

  // weak (docs/banks.md §2.9): no real layout is known, so nothing is guessed: a page without a labelled
  // reference, amount or date is unreadable rather than partly trusted. A generic page may label more
  // than one thing a reference, so the one asked for only has to be among them.
  const references = values.get("reference") ?? [];
  if (references.length === 0) fail("The receipt page shows no reference");
  // Compared without case: a page may print a token in capitals.
  const wanted = expectedReference.toUpperCase();
  const shows = (value: string) =>
    value
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      .includes(wanted);
  if (!references.some(shows)) {
    throw anotherTransaction(BANK, normalizeReference(references.join(", ")), expectedReference);
  }

  const amountText = first("amount");
  const parsed = amountText ? parseAmount(amountText) : null;
  // Some receipts print the debit side as "-5,000.00"; the transferred amount is its size.
  const amount = parsed === null ? null : Math.abs(parsed);
  if (amount === null) return fail("The receipt page shows no readable amount");

  const dateText = first("date");
  const transactionDate = dateText ? parseReceiptDate(dateText) : null;
  if (!transactionDate) return fail(`The receipt page shows no readable date (${dateText || "missing"})`);

  const type = first("type");
  const currency = /\b(ETB|USD|EUR)\b/i.exec(amountText)?.[1]?.toUpperCase() ?? "ETB";
  return {
    status: readStatus(first("status")),
    amount,
    currency,
    transactionDate,
    payerName: first("payerName"),
    payerAccount: first("payerAccount"),
    receiverName: first("receiverName"),
    receiverAccount: first("receiverAccount"),
    description: first("description") || null,
    ...(type ? { transactionType: type } : {}),
  };
}

// weak (docs/banks.md §2.9): status wording is unknown. A served receipt without a status row is a posted
// transfer (as on every other bank's receipt page); an explicit status other than a success word is kept.
function readStatus(status: string): string {
  return status ? readStatusWords(status) : "completed";
}
