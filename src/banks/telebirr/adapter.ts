import { type HtmlPage, htmlPage } from "../../reading/html-page.js";
import { addisIso, parseAmount, to24Hour } from "../../reading/parse-utils.js";
import type { BankCode } from "../codes.js";
import {
  ACCEPT_HTML,
  type BankOptions,
  bankNetwork,
  DESKTOP_USER_AGENT,
  isPlainHttps,
  normalizeAccount,
  referenceProblem,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByReference } from "../reference.js";
import type { BankAdapter, Receipt, ShareLink } from "../types.js";
import { LINE_LABELS, type TelebirrLabel } from "./labels.js";

const BANK = "telebirr" as const satisfies BankCode;

export const LOOKUP_HOST = "transactioninfo.ethiotelecom.et";
// weak (docs/banks.md §2.2): only check.et's docs show this share form; it is re-routed to the lookup host.
export const LEGACY_SHARE_HOST = "apps.ethiotelecom.et";
/** 10 characters, some older ones 9; at least one letter so a pasted phone number is caught early. */
const REFERENCE = /^(?=[A-Z0-9]*[A-Z])[A-Z0-9]{9,10}$/;

export type TelebirrOptions = BankOptions;

export function createTelebirrAdapter(options: TelebirrOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [`${LOOKUP_HOST}:443`, `${LEGACY_SHARE_HOST}:443`],
    network: bankNetwork({}, options.network),
    normalizeReference,
    normalizeAccount,
    validate: (target) =>
      referenceProblem(
        normalizeReference(target.transactionNumber),
        REFERENCE,
        "Telebirr",
        "10 letters and digits, e.g. DFH51OFIED",
      ),
    parseShareUrl(url) {
      if (!isPlainHttps(url)) return null;
      if (url.hostname !== LOOKUP_HOST && url.hostname !== LEGACY_SHARE_HOST) return null;
      const match = /^\/receipt\/([A-Za-z0-9]{1,40})\/?$/.exec(url.pathname);
      if (!match?.[1]) return null;
      return {
        transactionNumber: normalizeReference(match[1]),
        accountNumber: null,
        token: null,
      } satisfies ShareLink;
    },
    buildRequest(target) {
      const reference = normalizeReference(target.transactionNumber);
      return {
        url: `https://${LOOKUP_HOST}/receipt/${encodeURIComponent(reference)}`,
        method: "GET",
        headers: {
          "User-Agent": userAgent,
          Accept: ACCEPT_HTML,
          "Accept-Language": "en-US,en;q=0.9",
        },
      };
    },
    async parseResponse(response, target) {
      if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
      const html = response.body.toString("utf8");
      const page = htmlPage(html);
      // The miss (docs/banks.md §1.3): the error phrase without a receipt. cheki tells them apart by the
      // words "telebirr receipt"; a page that has them but holds no readable receipt is a miss too.
      const text = page.text();
      const refused = /this request is not correct/i.test(text);
      if (refused && (!/telebirr receipt/i.test(text) || !holdsReceipt(page, html)))
        return { kind: "not_found" };
      if (response.status !== 200) {
        throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status}`, html.slice(0, 200));
      }
      const { receipt, reference } = readPage(page, html);
      return foundByReference(BANK, receipt, reference, normalizeReference(target.transactionNumber));
    },
  };
}

/** Reads a telebirr receipt page (bilingual "Amharic/English" label cells) into a Receipt. */
export function parseTelebirrReceipt(html: string): Receipt {
  return readTelebirrReceipt(html).receipt;
}

/** The receipt and its "Invoice No." (the transaction number of the SMS). */
export function readTelebirrReceipt(html: string): { receipt: Receipt; reference: string } {
  return readPage(htmlPage(html), html);
}

function readPage(page: HtmlPage, html: string): { receipt: Receipt; reference: string } {
  // Table cells first; the page's lines, each a row of one cell, catch labels written outside tables.
  const tables = classified(page.rows());
  let lines: Classified | undefined;
  const pageLines = () => {
    lines ??= classified(page.lines().map((line) => [line]));
    return lines;
  };
  const value = (key: TelebirrLabel) => findValue(tables, key) ?? findValue(pageLines(), key);
  const required = <T>(result: T | null | undefined, label: string): T => {
    if (result === null || result === undefined || result === "") {
      throw new ReceiptFormatError(BANK, `The receipt has no readable ${label}.`, html.slice(0, 200));
    }
    return result;
  };

  const amount = required(parseAmount(value("settledAmount") ?? ""), "Settled Amount");
  const transactionDate = required(parseTelebirrDate(value("paymentDate") ?? ""), "Payment date");
  const status = englishHalf(required(value("status"), "transaction status")).toLowerCase();
  const bankAccount = splitBankAccount(value("bankAccount") ?? "");
  const creditedName = value("creditedName") ?? "";
  const receipt: Receipt = {
    // "Completed" is the confirmed state; any other status is passed on lowercased for the engine to judge.
    status,
    transactionType: value("paymentReason") ?? "",
    amount,
    currency: "ETB",
    transactionDate,
    payerName: value("payerName") ?? "",
    payerAccount: value("payerPhone") ?? "",
    receiverName: receiverName(creditedName, bankAccount),
    // Paid to a bank: the credited party's account is an internal code (e.g. "0003"); the real one is here.
    receiverAccount: bankAccount ? bankAccount.account : (value("creditedAccount") ?? ""),
    description: value("customerNote") || null,
  };
  return { receipt, reference: normalizeReference(value("invoiceNo") ?? "") };
}

// --- internal helpers ---

function normalizeReference(raw: string): string {
  return raw.trim().toUpperCase();
}

const ETHIOPIC = /[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f]/g;
const HAS_ETHIOPIC = /[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f]/;

type CellKind =
  | { kind: "label"; key: TelebirrLabel; inline: string }
  | { kind: "amharic" }
  | { kind: "separator" };

/** Classifies a cell: a known label (with any value written in the same cell), an Amharic-only half, a ":". */
function classify(cell: string): CellKind | null {
  if (SEPARATOR.test(cell)) return { kind: "separator" };
  const latin = (HAS_ETHIOPIC.test(cell) ? cell.replace(ETHIOPIC, "") : cell).replace(/^[\s/:.|-]+/, "");
  if (!/[A-Za-z0-9]/.test(latin)) return HAS_ETHIOPIC.test(cell) ? { kind: "amharic" } : null;
  // The English half, with the Amharic one removed, opens with its label.
  const match = ANY_LABEL.exec(latin);
  if (!match) return null;
  let group = 1;
  while (group < match.length && match[group] === undefined) group++;
  const key = LINE_LABELS[group - 1]?.[0];
  if (!key) return null;
  return {
    kind: "label",
    key,
    inline: latin
      .slice(match[0].length)
      .replace(/^[\s:.\-/]+/, "")
      .trim(),
  };
}

const SEPARATOR = /^\s*[:\uff1a]\s*$/;

/**
 * Cells that are a label alone (or an Amharic half, a ":") and what they are: every receipt page has the same
 * two dozen, and classifying one runs a pattern of 27 groups and copies its English half, so each is
 * classified once. Value cells and labels holding their value differ from page to page and are not kept;
 * past the bound, new ones are classified each time.
 */
const KNOWN_CELLS = new Map<string, CellKind>();
const MAX_KNOWN_CELLS = 500;

function classifyKnown(cell: string): CellKind | null {
  const known = KNOWN_CELLS.get(cell);
  if (known) return known;
  const kind = classify(cell);
  if (kind && (kind.kind !== "label" || kind.inline === "") && KNOWN_CELLS.size < MAX_KNOWN_CELLS) {
    // A cell is usually a slice of its page, which a key would keep alive: the key is a copy.
    KNOWN_CELLS.set(Buffer.from(cell, "utf16le").toString("utf16le"), kind);
  }
  return kind;
}

// Every cell of every page is tried against the labels: one pattern of alternatives, one group each, in
// LINE_LABELS' order (the first that matches wins, as in a loop over them), instead of 26 patterns a cell.
const ANY_LABEL = new RegExp(
  `^(?:${LINE_LABELS.map(([, pattern]) => `(${pattern.source.slice(1)})`).join("|")})`,
  "i",
);
if (new RegExp(`${ANY_LABEL.source}|`).exec("")?.length !== LINE_LABELS.length + 1) {
  throw new Error("telebirr's label patterns must not capture: each is one group of ANY_LABEL");
}

/** Rows of cells with each cell classified once, and where each label first stands: a page is searched for a dozen. */
interface Classified {
  rows: string[][];
  kinds: (CellKind | null)[][];
  firstCell: Map<TelebirrLabel, { row: number; column: number; inline: string }>;
}

function classified(rows: string[][]): Classified {
  const kinds = rows.map((row) => row.map(classifyKnown));
  const firstCell: Classified["firstCell"] = new Map();
  kinds.forEach((row, r) => {
    row.forEach((kind, c) => {
      if (kind?.kind === "label" && !firstCell.has(kind.key)) {
        firstCell.set(kind.key, { row: r, column: c, inline: kind.inline });
      }
    });
  });
  return { rows, kinds, firstCell };
}

/** Finds a label cell and its value: same cell, next cell of the row, or same column of the next row. */
function findValue({ rows, kinds, firstCell }: Classified, key: TelebirrLabel): string | undefined {
  const label = firstCell.get(key);
  if (!label) return undefined;
  const { row: r, column: c, inline } = label;
  if (inline) return inline;
  const row = rows[r] ?? [];
  for (let n = c + 1; n < row.length; n++) {
    const kind = kinds[r]?.[n]?.kind;
    if (kind === "separator" || (kind === "amharic" && n < row.length - 1)) continue;
    if (kind === "label") break;
    return (row[n] ?? "").trim();
  }
  // Header row of labels above a row of values (the invoice table: Invoice No. | Payment date | Settled Amount).
  const below = rows[r + 1]?.[c];
  if (below !== undefined && (kinds[r + 1]?.[c] ?? null) === null) return below.trim();
  return "";
}

function holdsReceipt(page: HtmlPage, html: string): boolean {
  try {
    readPage(page, html);
    return true;
  } catch (error) {
    if (error instanceof ReceiptFormatError) return false;
    throw error;
  }
}

/** "ተጠናቋል/Completed" → "Completed": a bilingual value is read by its English half, when it has one. */
function englishHalf(value: string): string {
  const latin = value
    .replace(ETHIOPIC, "")
    .replace(/^[\s/:|-]+|[\s/:|-]+$/g, "")
    .trim();
  return /[A-Za-z]/.test(latin) ? latin : value.trim();
}

/** "18-07-2025 19:58:20" (also the SMS form 17/06/2026 18:14:15). */
export function parseTelebirrDate(text: string): string | null {
  const m =
    /(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[\sT,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?/.exec(
      text,
    );
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return addisIso({
    year,
    month,
    day,
    hour: to24Hour(Number(m[4] ?? 0), m[7]),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  });
}

// Digits and mask characters, with inner dashes, holding at least one digit.
const ACCOUNT = String.raw`(?=[\d*•xX-]*\d)[\d*•xX](?:[\d*•xX-]*[\d*•xX])?`;

/**
 * Who was paid: the credited party, as the page names it; when that is the bank itself (a transfer to a
 * bank account may credit "Commercial Bank of Ethiopia"), the holder written beside the bank account.
 */
export function receiverName(creditedName: string, bankAccount: { name: string } | null): string {
  const credited = creditedName.trim();
  if (!bankAccount?.name || (credited && !NAMES_A_BANK.test(credited))) return credited;
  return bankAccount.name;
}

const NAMES_A_BANK = /\bbank\b|^CBE\b|\bS\.?C\.?$/i;

/** "1000370251685 Mr Mohammed Abdulwasi Reshid" (either order) → account and holder name. */
export function splitBankAccount(text: string): { account: string; name: string } | null {
  const trimmed = text.trim();
  if (!/\d/.test(trimmed)) return null;
  const lead = new RegExp(String.raw`^(${ACCOUNT})(?:\s*[-–:,]\s*|\s+|$)(.*)$`).exec(trimmed);
  if (lead?.[1]) return { account: lead[1], name: (lead[2] ?? "").trim() };
  const tail = new RegExp(String.raw`^(.*?)\s*[-–:,]?\s*(${ACCOUNT})$`).exec(trimmed);
  if (tail?.[2]) return { account: tail[2], name: (tail[1] ?? "").trim() };
  return { account: trimmed, name: "" };
}
