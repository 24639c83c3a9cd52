import { extractPdfText, UnreadablePdfError } from "../../receipts/pdf-text.js";
import type { BankCode } from "../codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import type { BankAdapter, BankNetwork, BankRequest, BankResponse, LookupOutcome } from "../types.js";
import {
  API_HOST,
  API_PATH,
  FT_REFERENCE,
  LEGACY_ORIGIN,
  parseCbeShareUrl,
  SHARE_HOST,
  tokenOf,
  validateCbeTarget,
} from "./input.js";
import { parseCbeJson, parseCbePdfText } from "./parse.js";

const BANK = "cbe" as const satisfies BankCode;

export interface CbeOptions {
  /** X-App-ID header of the mobile-receipt API (a public constant of CBE's receipt web app). */
  appId?: string;
  /** X-App-Version header of the mobile-receipt API (same origin as appId). */
  appVersion?: string;
  network?: Partial<BankNetwork>;
}

/** Public constants of the mbreciept web bundle, as used by 1RB/cheki and L3von36/cheki-mobile. */
export const CBE_APP_ID = "d1292e42-7400-49de-a2d3-9731caa4c819";
export const CBE_APP_VERSION = "0a01980b-9859-1369-8198-59f403820000";

const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

export function createCbeAdapter(options: CbeOptions = {}): BankAdapter {
  const appId = options.appId ?? CBE_APP_ID;
  const appVersion = options.appVersion ?? CBE_APP_VERSION;
  const network: BankNetwork = {
    // One budget for both systems: the legacy PDF host is the slow one (30 s, banks.md §1.4).
    timeoutMs: 30_000,
    connectTimeoutMs: 10_000,
    retries: 2,
    backoffMs: 800,
    insecureTlsOrigins: [LEGACY_ORIGIN],
    ...options.network,
  };

  return {
    code: BANK,
    origins: [`${SHARE_HOST}:443`, `${API_HOST}:443`, LEGACY_ORIGIN],
    network,

    normalizeReference(raw) {
      const value = raw.trim();
      // FT references are case-insensitive; tokens are not and keep their case.
      return FT_REFERENCE.test(value) ? value.toUpperCase() : value;
    },

    normalizeAccount(raw) {
      return raw.replace(/[\s-]/g, "");
    },

    validate: validateCbeTarget,
    parseShareUrl: parseCbeShareUrl,

    buildRequest(target): BankRequest {
      const token = tokenOf(target);
      if (token) {
        return {
          url: `https://${API_HOST}${API_PATH}${encodeURIComponent(token)}`,
          method: "GET",
          headers: {
            "User-Agent": USER_AGENT,
            Accept: "application/json, text/plain, */*",
            "X-App-ID": appId,
            "X-App-Version": appVersion,
          },
        };
      }
      const reference = target.transactionNumber.trim().toUpperCase();
      return {
        url: `https://${LEGACY_ORIGIN}/?id=${reference}${accountSuffix(target.account)}`,
        method: "GET",
        headers: { "User-Agent": USER_AGENT, Accept: "application/pdf, */*" },
      };
    },

    isTransient(response) {
      // Valid tokens sometimes answer 400 and then 200 (banks.md §1.4); missing headers never heal.
      return response.status === 400 && !isMissingHeaders(response);
    },

    async parseResponse(response, target) {
      return tokenOf(target) ? readApiAnswer(response) : readLegacyAnswer(response);
    },
  };
}

// --- internal helpers ---

function accountSuffix(account: string | null): string {
  return (account ?? "").replace(/\D/g, "").slice(-8);
}

function bodyText(response: BankResponse): string {
  return response.body.toString("utf8");
}

function isMissingHeaders(response: BankResponse): boolean {
  return /missing headers/i.test(bodyText(response));
}

async function readApiAnswer(response: BankResponse): Promise<LookupOutcome> {
  const { status } = response;
  if (status === 200) return { kind: "found", receipt: parseCbeJson(bodyText(response)) };
  if (status === 400 && isMissingHeaders(response)) {
    throw new ReceiptFormatError(
      BANK,
      "The CBE receipt API refused the request headers (X-App-ID / X-App-Version); check the configured values.",
      bodyText(response).slice(0, 200),
    );
  }
  // A 400 that survived the retries, an unknown path, or the anti-enumeration answer for unknown tokens.
  if (status === 400 || status === 404) return { kind: "not_found" };
  if (status === 500 && /security alert|invalid or tampered/i.test(bodyText(response))) {
    return { kind: "not_found" };
  }
  if (status >= 500) throw new BankUnavailableError(BANK, "server_error");
  throw new ReceiptFormatError(
    BANK,
    `The CBE receipt API answered HTTP ${status}.`,
    bodyText(response).slice(0, 200),
  );
}

async function readLegacyAnswer(response: BankResponse): Promise<LookupOutcome> {
  const { status, body } = response;
  if (
    status === 404 ||
    /You Are Not Allowed to See This Data/i.test(body.subarray(0, 4096).toString("utf8"))
  ) {
    return { kind: "not_found" };
  }
  if (status >= 500) throw new BankUnavailableError(BANK, "server_error");
  if (status !== 200 || body.subarray(0, 1024).indexOf("%PDF") === -1) {
    throw new ReceiptFormatError(
      BANK,
      `The CBE receipt host answered HTTP ${status} without a PDF.`,
      body.subarray(0, 200).toString("utf8"),
    );
  }
  let text: string;
  try {
    text = await extractPdfText(body);
  } catch (error) {
    if (error instanceof UnreadablePdfError) throw new ReceiptFormatError(BANK, error.message);
    throw error;
  }
  return { kind: "found", receipt: parseCbePdfText(text) };
}
