import { htmlPage } from "../../reading/html-page.js";
import { answerText, isPdf } from "../../reading/parse-utils.js";
import { readPdfText } from "../../reading/pdf-labels.js";
import type { BankCode } from "../codes.js";
import {
  ACCEPT_JSON,
  type BankOptions,
  bankNetwork,
  DESKTOP_USER_AGENT,
  normalizeAccount,
} from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByReference, foundByToken } from "../reference.js";
import type { BankAdapter, BankRequest, BankResponse, LookupOutcome } from "../types.js";
import {
  API_HOST,
  API_PATH,
  LEGACY_ORIGIN,
  normalizeCbeReference,
  parseCbeShareUrl,
  SHARE_HOST,
  tokenOf,
  validateCbeTarget,
} from "./input.js";
import { readCbeJson, readCbePdfText } from "./parse.js";

const BANK = "cbe" as const satisfies BankCode;

export interface CbeOptions extends BankOptions {
  /** X-App-ID header of the mobile-receipt API (a public constant of CBE's receipt web app). */
  appId?: string;
  /** X-App-Version header of the mobile-receipt API (same origin as appId). */
  appVersion?: string;
}

/** Public constants of the mbreciept web bundle, as used by 1RB/cheki and L3von36/cheki-mobile. */
export const CBE_APP_ID = "d1292e42-7400-49de-a2d3-9731caa4c819";
export const CBE_APP_VERSION = "0a01980b-9859-1369-8198-59f403820000";

export function createCbeAdapter(options: CbeOptions = {}): BankAdapter {
  const appId = options.appId ?? CBE_APP_ID;
  const appVersion = options.appVersion ?? CBE_APP_VERSION;
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [`${SHARE_HOST}:443`, `${API_HOST}:443`, LEGACY_ORIGIN],
    // One budget for both systems: the legacy PDF host is the slow one (30 s, docs/banks.md §1.4).
    network: bankNetwork({ timeoutMs: 30_000, insecureTlsOrigins: [LEGACY_ORIGIN] }, options.network),

    normalizeReference: normalizeCbeReference,

    normalizeAccount,

    validate: validateCbeTarget,
    parseShareUrl: parseCbeShareUrl,

    buildRequest(target): BankRequest {
      const token = tokenOf(target);
      if (token) {
        return {
          url: `https://${API_HOST}${API_PATH}${encodeURIComponent(token)}`,
          method: "GET",
          headers: {
            "User-Agent": userAgent,
            Accept: ACCEPT_JSON,
            "X-App-ID": appId,
            "X-App-Version": appVersion,
          },
        };
      }
      return {
        url: `https://${LEGACY_ORIGIN}/?id=${legacyReference(target)}${accountSuffix(target.account)}`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: "application/pdf, */*" },
      };
    },

    fallbackRequest(target): BankRequest | null {
      if (tokenOf(target)) return null;
      return {
        url: `https://${LEGACY_ORIGIN}/BranchReceipt/${legacyReference(target)}&${accountSuffix(target.account)}`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: "application/pdf, */*" },
      };
    },

    isTransient(response) {
      // Valid tokens sometimes answer 400 and then 200 (docs/banks.md §1.4); missing headers never heal.
      return response.status === 400 && !isMissingHeaders(response);
    },

    async parseResponse(response, target) {
      const token = tokenOf(target);
      return token ? readApiAnswer(response, token) : readLegacyAnswer(response, legacyReference(target));
    },
  };
}

// --- internal helpers ---

/** The 12-character FT reference of a legacy lookup (the account suffix is sent apart). */
function legacyReference(target: { transactionNumber: string }): string {
  return target.transactionNumber.trim().toUpperCase();
}

function accountSuffix(account: string | null): string {
  return (account ?? "").replace(/\D/g, "").slice(-8);
}

function bodyText(response: BankResponse): string {
  return answerText(response.body);
}

function isMissingHeaders(response: BankResponse): boolean {
  return /missing headers/i.test(bodyText(response));
}

/** A token lookup is reported under the FT number the JSON carries, as a legacy lookup of it would be. */
async function readApiAnswer(response: BankResponse, token: string): Promise<LookupOutcome> {
  const { status } = response;
  if (status === 200) {
    // weak (one project, Odit): some mbreciept links are said to be served as the CBE PDF receipt.
    const { receipt, reference } = isPdf(response.body)
      ? readCbePdfText(await readPdfText(BANK, response.body))
      : readCbeJson(bodyText(response));
    return foundByToken(receipt, reference, token);
  }
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

/** The legacy host's refusal, "You Are Not Allowed to See This Data": a short page, found in its first 4 KB. */
function isRefusalPage(body: Buffer): boolean {
  if (isPdf(body)) return false;
  return /You Are Not Allowed to See This Data/i.test(
    htmlPage(body.subarray(0, 4096).toString("utf8")).text(),
  );
}

async function readLegacyAnswer(response: BankResponse, requested: string): Promise<LookupOutcome> {
  const { status, body } = response;
  if (status === 404 || isRefusalPage(body)) return { kind: "not_found" };
  if (status >= 500) throw new BankUnavailableError(BANK, "server_error");
  if (status !== 200 || !isPdf(body)) {
    throw new ReceiptFormatError(
      BANK,
      `The CBE receipt host answered HTTP ${status} without a PDF.`,
      body.subarray(0, 200).toString("utf8"),
    );
  }
  const { receipt, reference } = readCbePdfText(await readPdfText(BANK, body));
  return foundByReference(BANK, receipt, reference, requested);
}
