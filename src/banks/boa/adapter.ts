import { addisIso, answerText, isRecord, parseAmount, to24Hour } from "../../reading/parse-utils.js";
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
import type { BankAdapter, BankResponse, LookupOutcome, LookupTarget, Receipt, ShareLink } from "../types.js";
import { type BoaField, FIELDS, WHOLE_KEY } from "./labels.js";

const BANK = "boa" as const satisfies BankCode;
export const HOST = "cs.bankofabyssinia.com";
const SLIP_PAGE = `https://${HOST}/slip/`;

/** FT/TT + YYDDD + 5 alnum (T24 reference), e.g. FT26083XJRMH. */
const REFERENCE = /^(?:FT|TT)\d{5}[A-Z0-9]{5}$/;
/** The slip id: reference + last 5 digits of an account, e.g. FT26083XJRMH26009. */
const SLIP_ID = /^((?:FT|TT)\d{5}[A-Z0-9]{5})(\d{5})$/;
const SUFFIX_DIGITS = 5;

export type BoaOptions = BankOptions;

export function createBoaAdapter(options: BoaOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  const slipId = (reference: string, account: string | null): string => {
    // A full 17-character slip id typed as the reference already carries its account suffix.
    if (SLIP_ID.test(reference)) return reference;
    const digits = normalizeAccount(account ?? "").replace(/\D/g, "");
    return `${reference}${digits.slice(-SUFFIX_DIGITS)}`;
  };
  return {
    code: BANK,
    origins: [`${HOST}:443`],
    network: bankNetwork({}, options.network),
    normalizeReference,
    normalizeAccount,
    validate(target) {
      const reference = normalizeReference(target.transactionNumber);
      const account = normalizeAccount(target.account ?? "");
      if (SLIP_ID.test(reference)) return null;
      const problem = referenceProblem(
        reference,
        REFERENCE,
        "Bank of Abyssinia",
        "FT or TT and 10 more letters and digits, e.g. FT26083XJRMH",
      );
      if (problem) return problem;
      if (!account) {
        return {
          field: "account_number",
          message:
            "The account number field is required for Bank of Abyssinia (the last 5 digits of the account in the SMS are used).",
        };
      }
      if (!/^\d{5,}$/.test(account)) {
        return {
          field: "account_number",
          message:
            "The account number for Bank of Abyssinia must be digits only, at least the last 5 of the account.",
        };
      }
      return null;
    },
    parseShareUrl(url) {
      if (!isPlainHttps(url) || url.hostname !== HOST) return null;
      // The feedback link /cs/?trx=C{ref} carries a reference too, but is not a receipt.
      let raw: string | null = null;
      if (/^\/slip\/?$/.test(url.pathname)) raw = url.searchParams.get("trx");
      else if (/^\/api\/onlineSlip\/getDetails\/?$/i.test(url.pathname)) raw = url.searchParams.get("id");
      if (!raw) return null;
      const id = dedupeSlipId(raw.replace(/[\s.,;:!?)\]]+$/, "").toUpperCase());
      const match = SLIP_ID.exec(id);
      if (!match?.[1] || !match[2]) return null;
      return { transactionNumber: match[1], accountNumber: match[2], token: null } satisfies ShareLink;
    },
    buildRequest(target) {
      const id = slipId(normalizeReference(target.transactionNumber), target.account);
      return {
        url: `https://${HOST}/api/onlineSlip/getDetails/?id=${encodeURIComponent(id)}`,
        method: "GET",
        headers: {
          "User-Agent": userAgent,
          Accept: ACCEPT_JSON,
          "Accept-Language": "en-US,en;q=0.9",
          Referer: SLIP_PAGE,
          // weak: other clients send "Referer/Origin .../slip/"; an Origin header never has a path, so this
          // is what a browser on the slip page sends.
          Origin: `https://${HOST}`,
        },
      };
    },
    parseResponse: parseBoaResponse,
  };
}

/** `{header:{status:"success"}, body:[{...}]}`; a miss is HTTP 200 with "Payer's Name": "Invalid reference number". */
export async function parseBoaResponse(response: BankResponse, target: LookupTarget): Promise<LookupOutcome> {
  if (response.status >= 500) throw new BankUnavailableError(BANK, "server_error");
  const text = answerText(response.body);
  if (response.status !== 200) {
    throw new ReceiptFormatError(BANK, `Unexpected HTTP ${response.status}`, text.slice(0, 200));
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new ReceiptFormatError(BANK, "The slip API did not answer JSON.", text.slice(0, 200));
  }
  const rows = isRecord(payload) ? bodyRows(payload.body) : null;
  if (!isRecord(payload) || rows === null) {
    throw new ReceiptFormatError(BANK, "The slip API answer has no body.", text.slice(0, 200));
  }
  const [row] = rows;
  // weak: an empty body is not documented; no row for the id reads as "not found".
  if (row === undefined) return { kind: "not_found" };
  if (!isRecord(row))
    throw new ReceiptFormatError(BANK, "The slip API row is not an object.", text.slice(0, 200));
  const fields = normalizedKeys(row);
  // The miss sits in "Payer's Name" (docs/banks.md §1.3); inter-bank transfers (BOA → other banks) get this
  // answer too. It is read before the header, whose status on a miss is not known.
  if ([...fields.values()].some((value) => /^invalid reference/i.test(value))) return { kind: "not_found" };
  // A missing header is tolerated; a header that reports anything but success is never confirmed.
  const status = isRecord(payload.header) ? payload.header.status : undefined;
  if (status !== undefined && String(status).trim().toLowerCase() !== "success") {
    throw new ReceiptFormatError(BANK, `The slip API reported status ${String(status)}.`, text.slice(0, 200));
  }
  const receipt = toReceipt(fields, text);
  // Shown as the reference alone, or (tolerated) as the whole slip id with its account suffix.
  const shown = normalizeReference(present(fields, "reference") ?? "");
  return foundByReference(BANK, receipt, SLIP_ID.exec(shown)?.[1] ?? shown, referenceOf(target));
}

// --- internal helpers ---

/** `body: [{…}]` as documented; a single row object is read as a one-row body. */
function bodyRows(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  return isRecord(body) ? [body] : null;
}

/** T24 references are case-insensitive; the slip id is always printed in upper case. */
function normalizeReference(raw: string): string {
  return raw.replace(/\s+/g, "").toUpperCase();
}

/** The 12-character reference asked for, without the account suffix a full slip id carries. */
function referenceOf(target: LookupTarget): string {
  const reference = normalizeReference(target.transactionNumber);
  return SLIP_ID.exec(reference)?.[1] ?? reference;
}

function toReceipt(fields: Map<string, string>, text: string): Receipt {
  const pick = (field: BoaField) => filled(fields, field);
  const amount = parseAmount(pick("amount") ?? "");
  if (amount === null) {
    throw new ReceiptFormatError(BANK, "The slip has no readable Transferred Amount.", text.slice(0, 200));
  }
  const transactionDate = parseBoaDate(pick("date") ?? "");
  if (!transactionDate) {
    throw new ReceiptFormatError(BANK, "The slip has no readable Transaction Date.", text.slice(0, 200));
  }
  const transactionType = pick("type");
  const narrative = present(fields, "description");
  return {
    status: "completed",
    ...(transactionType ? { transactionType } : {}),
    amount,
    currency: (pick("currency") ?? "ETB").toUpperCase(),
    transactionDate,
    payerName: pick("payerName") ?? "",
    payerAccount: pick("payerAccount") ?? "",
    receiverName: pick("receiverName") ?? "",
    receiverAccount: pick("receiverAccount") ?? "",
    description: narrative === undefined ? null : narrative,
  };
}

/** A field's value under the first of its labels (labels.ts, preferred first) that the row fills. */
function filled(fields: ReadonlyMap<string, string>, field: BoaField): string | undefined {
  return fieldValue(fields, field, (value) => value !== "");
}

/** A field's value under the first of its labels that the row has, empty or not. */
function present(fields: ReadonlyMap<string, string>, field: BoaField): string | undefined {
  return fieldValue(fields, field, () => true);
}

function fieldValue(
  fields: ReadonlyMap<string, string>,
  field: BoaField,
  accept: (value: string) => boolean,
): string | undefined {
  for (const label of FIELDS[field]) {
    for (const [key, value] of fields) if (WHOLE_KEY[label].test(key) && accept(value)) return value;
  }
  return undefined;
}

/** Keys lower-cased with one apostrophe style and single spaces ("Transferred amount", "Payer’s Name"). */
function normalizedKeys(row: Record<string, unknown>): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(row)) {
    if (value === null || value === undefined || typeof value === "object") continue;
    const name = key
      .replace(/[\u2018\u2019`]/g, "'")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase();
    if (!fields.has(name)) fields.set(name, String(value).trim());
  }
  return fields;
}

/** App "19/07/2025, 17:32:13"; JSON "01/09/25 14:30" (per one client); ISO-like "2025-07-19 17:32:13". */
function parseBoaDate(text: string): string | null {
  const dmy =
    /(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?)?/.exec(
      text,
    );
  const ymd = /(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  const parts = dmy
    ? { day: dmy[1], month: dmy[2], year: dmy[3], rest: dmy.slice(4) }
    : ymd
      ? { day: ymd[3], month: ymd[2], year: ymd[1], rest: ymd.slice(4) }
      : null;
  if (!parts) return null;
  const [day, month, year] = [Number(parts.day), Number(parts.month), Number(parts.year)];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const [hour, minute, second, meridiem] = parts.rest;
  return addisIso({
    year,
    month,
    day,
    hour: to24Hour(Number(hour ?? 0), meridiem),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
  });
}

/** The slip SPA's own id fix-up: a trx that repeats its reference after the suffix is cut to 17 characters. */
function dedupeSlipId(id: string): string {
  const half = Math.floor(id.length / 2);
  const prefix = id.substring(0, half - 2);
  const tail = id.substring(half + 3);
  return tail === prefix ? id.substring(0, half + 3) : id;
}
