import { type HtmlPage, htmlPage, tableRows } from "../../reading/html-page.js";
import { addisIso, parseAmount, pickFirst, to24Hour } from "../../reading/parse-utils.js";
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
import { foundByToken } from "../reference.js";
import type { BankAdapter, BankResponse, LookupOutcome, LookupTarget, Receipt, ShareLink } from "../types.js";
import { DATE_LABELS, type Label, labelOf, sidesOf } from "./labels.js";

const BANK = "awash" as const satisfies BankCode;
const RECEIPT_HOST = "awashpay.awashbank.com";
const RECEIPT_PORT = "8225";
const RECEIPT_ORIGIN = `${RECEIPT_HOST}:${RECEIPT_PORT}`;

/** "-{base-36 transaction id}-{server counter}", e.g. -2KDL95Z0NR-4U61O6; case-sensitive, leading dash kept. */
const TOKEN = /^-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;
/** The same token with its leading dash lost; the bank answers 403 for it. */
const DASHLESS_TOKEN = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;
/** Transaction ID printed on the receipt: 15 digits (2026+) or 12 hex-like characters (older). */
const BARE_TRANSACTION_ID = /^(?:\d{15}|[0-9A-Fa-f]{12})$/;
/** Punctuation that sticks to a link pasted from an SMS sentence. */
const TRAILING_PUNCTUATION = /[\s.,;:!?'"`)\]}>/]+$/;

export type AwashOptions = BankOptions;

export function createAwashAdapter(options: AwashOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [RECEIPT_ORIGIN],
    // The certificate on port 8225 does not verify (docs/banks.md §1.4).
    network: bankNetwork({ insecureTlsOrigins: [RECEIPT_ORIGIN] }, options.network),
    normalizeReference,
    normalizeAccount,
    validate(target) {
      const token = tokenOf(target);
      const field = target.token ? "receipt_url" : "transaction_number";
      if (TOKEN.test(token)) return null;
      if (!token) {
        return { field, message: "The receipt link from the Awash Bank SMS is required." };
      }
      if (BARE_TRANSACTION_ID.test(token)) {
        return {
          field,
          message:
            "An Awash Bank transaction ID alone cannot be checked. Send the receipt link from the Awash SMS (https://awashpay.awashbank.com:8225/-...).",
        };
      }
      if (DASHLESS_TOKEN.test(token)) {
        return {
          field,
          message:
            "The Awash Bank receipt token has lost its leading dash (it looks like -2KDL95Z0NR-4U61O6). Copy the whole link from the SMS.",
        };
      }
      return {
        field,
        message:
          "The transaction number format is invalid for Awash Bank. Send the receipt link from the Awash SMS (https://awashpay.awashbank.com:8225/-...).",
      };
    },
    parseShareUrl(url) {
      if (!isPlainHttps(url, RECEIPT_PORT) || url.hostname !== RECEIPT_HOST) return null;
      let path: string;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        return null;
      }
      const token = path.slice(1).replace(TRAILING_PUNCTUATION, "");
      if (!TOKEN.test(token)) return null;
      return { transactionNumber: token, accountNumber: null, token } satisfies ShareLink;
    },
    buildRequest(target) {
      // The share link itself is the lookup.
      return {
        url: `https://${RECEIPT_ORIGIN}/${encodeURI(tokenOf(target))}`,
        method: "GET",
        headers: {
          "User-Agent": userAgent,
          Accept: ACCEPT_HTML,
          "Accept-Language": "en-US,en;q=0.9",
        },
      };
    },
    parseResponse: parseAwashResponse,
  };
}

/**
 * Found receipt page, "Receipt not found" page (HTTP 200), or 403 for an unknown/expired token. A found
 * receipt is reported under its Transaction ID, which a link of the same transfer always shows.
 */
export async function parseAwashResponse(
  response: BankResponse,
  target: LookupTarget,
): Promise<LookupOutcome> {
  if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
  // 403 is what the bank answers for a bad or expired token.
  // weak: a 404 has not been seen; it is read as a miss too.
  if (response.status === 403 || response.status === 404) return { kind: "not_found" };
  const html = response.body.toString("utf8");
  if (response.status !== 200) {
    throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status}`, html.slice(0, 200));
  }
  const page = htmlPage(html);
  const tables = infoTables(page);
  const transaction = tables.find((table) => table.has("amount"));
  if (!transaction) {
    if (/receipt\s+not\s+found|invalid\s+receipt/i.test(page.text())) return { kind: "not_found" };
    throw new ReceiptFormatError(BANK, "The page has no receipt table.", html.slice(0, 200));
  }
  const customer: Table = new Map();
  for (const table of tables) {
    if (table === transaction) continue;
    for (const [label, value] of table) if (!customer.has(label)) customer.set(label, value);
  }
  const receipt = toReceipt(transaction, customer, html);
  const transactionId = transaction.get("transactionId") ?? customer.get("transactionId") ?? "";
  return foundByToken(receipt, normalizeReference(transactionId), tokenOf(target));
}

// --- internal helpers ---

/** Tokens are case-sensitive: trim only, never change case. */
function normalizeReference(raw: string): string {
  return raw.trim().replace(TRAILING_PUNCTUATION, "");
}

function tokenOf(target: LookupTarget): string {
  return normalizeReference(target.token ?? target.transactionNumber);
}

/** A table's rows by the label they print (labels.ts); rows of other labels are left out. */
type Table = Map<Label, string>;

function toReceipt(tx: Table, customer: Table, html: string): Receipt {
  const pick = (...labels: Label[]) => pickFirst(tx, labels);
  const amount = parseAmount(tx.get("amount") ?? "");
  if (amount === null)
    throw new ReceiptFormatError(BANK, "The receipt has no readable Amount.", html.slice(0, 200));
  const transactionDate = parseAwashDate(pick(...DATE_LABELS) ?? "");
  if (!transactionDate) {
    throw new ReceiptFormatError(BANK, "The receipt has no readable Transaction Date.", html.slice(0, 200));
  }
  const transactionType = pick("transactionType");
  const reason = tx.get("reason");
  const sides = sidesOf(pick, (label) => pickFirst(customer, [label]));
  return {
    status: "completed",
    ...(transactionType ? { transactionType } : {}),
    amount,
    currency: "ETB",
    transactionDate,
    payerName: sides.payerName ?? "",
    payerAccount: sides.payerAccount ?? "",
    receiverName: sides.receiverName ?? "",
    receiverAccount: sides.receiverAccount ?? "",
    description: reason === undefined ? null : reason,
  };
}

/** Every `table.info-table` (any table when none is marked) as label → value, first occurrence kept. */
function infoTables(page: HtmlPage): Table[] {
  const all = page.elements("table");
  const marked = all.filter((table) => /\binfo-table\b/i.test(table.attribs.class ?? ""));
  return (marked.length > 0 ? marked : all).map((table) => labelledRows(tableRows(table)));
}

/** Rows of (label, ":", value); two-cell rows with the colon glued to either cell are read too. */
function labelledRows(cellRows: string[][]): Table {
  const rows: Table = new Map();
  for (const [first, ...rest] of cellRows) {
    if (first === undefined || rest.length === 0) continue;
    const label = labelOf(first.replace(/[\s:]+$/, ""));
    const value = rest
      .filter((cell, i) => !(i === 0 && /^:?$/.test(cell.trim()) && rest.length > 1))
      .join(" ")
      .replace(/^\s*:\s*/, "")
      .trim();
    if (label && !rows.has(label)) rows.set(label, value);
  }
  return rows;
}

/** "2026-06-07 11:22:03", "2026-05-19 03:05:53 PM", or the date alone "2026-06-22". */
export function parseAwashDate(text: string): string | null {
  const m = /(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?)?/.exec(
    text,
  );
  if (!m) return null;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return addisIso({
    year: Number(m[1]),
    month,
    day,
    hour: to24Hour(Number(m[4] ?? 0), m[7]),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  });
}
