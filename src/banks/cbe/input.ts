import type { InputProblem, LookupTarget, ShareLink } from "../types.js";

// What CBE input looks like: mobile-receipt tokens, FT references with the receiving account, and the
// share links of both systems (docs/banks.md §2.1).

export const SHARE_HOST = "mbreciept.cbe.com.et";
export const API_HOST = "mb.cbe.com.et";
export const API_PATH = "/api/v1/transactions/public/transaction-detail/";
export const LEGACY_HOST = "apps.cbe.com.et";
export const LEGACY_ORIGIN = `${LEGACY_HOST}:100`;

export const FT_REFERENCE = /^FT[A-Z0-9]{10}$/i;
const V2_TOKEN = /^v2-[A-Za-z0-9_-]{8,40}$/;
// Older bare ids are mixed case; other banks' references are upper case and digits (docs/banks.md §1.2).
const BARE_TOKEN = /^(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]{8,32}$/;

const NAME = "Commercial Bank of Ethiopia";

/** FT references are case-insensitive; tokens are not and keep their case. */
export function normalizeCbeReference(raw: string): string {
  const value = raw.trim();
  return FT_REFERENCE.test(value) ? value.toUpperCase() : value;
}

/** Every v2 token the bank has shown is "v2-" and 20 letters and digits (docs/banks.md §2.1). */
const WHOLE_V2_TOKEN = /^v2-[A-Za-z0-9]{20}$/;

/**
 * A reference read from an image: a v2 token of another length lost or gained a character, and what is
 * neither an FT reference nor a token is a fragment OCR made of one ("T2607" of FT26073IHGAZ).
 */
export function isWholeCbeReference(reference: string): boolean {
  if (reference.startsWith("v2-")) return WHOLE_V2_TOKEN.test(reference);
  return FT_REFERENCE.test(reference) || BARE_TOKEN.test(reference);
}

/** Is this a CBE mobile-receipt token (v2-… or an older bare mixed-case id)? Case-sensitive. */
export function isCbeToken(value: string): boolean {
  return !FT_REFERENCE.test(value) && (V2_TOKEN.test(value) || BARE_TOKEN.test(value));
}

/** The token to send to the JSON API, or null for an FT lookup on the legacy host. */
export function tokenOf(target: LookupTarget): string | null {
  if (target.token) return target.token.trim();
  const reference = target.transactionNumber.trim();
  return isCbeToken(reference) ? reference : null;
}

export function validateCbeTarget(target: LookupTarget): InputProblem | null {
  if (target.token) {
    return isCbeToken(target.token.trim())
      ? null
      : { field: "receipt_url", message: `The receipt link is not a valid ${NAME} receipt link.` };
  }
  const reference = target.transactionNumber.trim();
  if (isCbeToken(reference)) return null;
  if (!FT_REFERENCE.test(reference)) {
    return { field: "transaction_number", message: `The transaction number format is invalid for ${NAME}.` };
  }
  const account = (target.account ?? "").replace(/[\s-]/g, "");
  if (!account) {
    return {
      field: "account_number",
      message: `The account number field is required for ${NAME}: give the receiving account number (its last 8 digits are used), or send the receipt link instead.`,
    };
  }
  if (!/^\d{8,}$/.test(account)) {
    return {
      field: "account_number",
      message: `The account number must be the receiving account's digits (at least the last 8) for ${NAME}.`,
    };
  }
  return null;
}

export function parseCbeShareUrl(url: URL): ShareLink | null {
  if (url.protocol !== "https:" || url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  if ((host === SHARE_HOST || host === API_HOST) && url.port === "") {
    const path = url.pathname.replace(/\/+$/, "");
    const raw = host === SHARE_HOST ? path.slice(1) : apiToken(path);
    const token = raw ? safeDecode(raw) : null;
    if (!token || !isCbeToken(token)) return null;
    return { transactionNumber: token, accountNumber: null, token };
  }
  if (host === LEGACY_HOST && url.port === "100") {
    const id = url.pathname === "/" ? (url.searchParams.get("id") ?? "") : branchId(url.pathname);
    const match = /^(FT[A-Z0-9]{10})&?(\d{8})$/i.exec(id.trim());
    if (!match?.[1] || !match[2]) return null;
    return { transactionNumber: match[1].toUpperCase(), accountNumber: match[2], token: null };
  }
  return null;
}

// --- internal helpers ---

function apiToken(path: string): string | null {
  const lower = path.toLowerCase();
  if (!lower.startsWith(API_PATH)) return null;
  const rest = path.slice(API_PATH.length);
  return rest.includes("/") ? null : rest;
}

/** "/BranchReceipt/FT26140P01YB&60536171" → "FT26140P01YB&60536171". */
function branchId(pathname: string): string {
  const match = /^\/BranchReceipt\/([^/]+)\/?$/i.exec(pathname);
  if (!match?.[1]) return "";
  const id = safeDecode(match[1]) ?? "";
  return id.includes("&") ? id : "";
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
