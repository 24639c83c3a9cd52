import type { BankNetwork, InputProblem } from "./types.js";

// What every adapter sends and how it talks to its bank, unless docs/banks.md says otherwise for that bank.

/** Every known client of these banks sends a browser User-Agent. */
export const DESKTOP_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
/** For the banks whose receipt pages are opened from their mobile apps. */
export const MOBILE_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36";

/** What every adapter factory accepts; a bank with more constants (CBE's app headers) extends it. */
export interface BankOptions {
  /**
   * Overrides of the network defaults (docs/banks.md §1.4, with the bank's own timeouts and TLS exceptions).
   */
  network?: Partial<BankNetwork>;
  /** Browser User-Agent sent with every lookup. */
  userAgent?: string;
}

/** Account numbers and phones are compared without the spaces and dashes people type into them. */
export function normalizeAccount(raw: string): string {
  return raw.replace(/[\s-]/g, "");
}

export const ACCEPT_HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
export const ACCEPT_JSON = "application/json, text/plain, */*";

/**
 * docs/banks.md §1.4 defaults (15 s, 2 retries, ~800 ms backoff, every certificate verified), then what
 * differs for the bank (slow PDF hosts, bad certificates), then the caller's configuration.
 */
export function bankNetwork(
  bankDefaults: Partial<BankNetwork>,
  overrides: Partial<BankNetwork> = {},
): BankNetwork {
  return {
    timeoutMs: 15_000,
    connectTimeoutMs: 10_000,
    retries: 2,
    backoffMs: 800,
    insecureTlsOrigins: [],
    ...bankDefaults,
    ...overrides,
  };
}

/** https, no userinfo, and the given port ("" is the default 443): the only form a share link may take. */
export function isPlainHttps(url: URL, port = ""): boolean {
  return url.protocol === "https:" && !url.username && !url.password && url.port === port;
}

/**
 * The two checks every typed reference gets: present, and of the bank's shape. `expected` describes the
 * shape with an example, for the message.
 */
export function referenceProblem(
  reference: string,
  shape: RegExp,
  bankName: string,
  expected: string,
): InputProblem | null {
  if (!reference) {
    return {
      field: "transaction_number",
      message: `The transaction number field is required for ${bankName}.`,
    };
  }
  if (!shape.test(reference)) {
    return {
      field: "transaction_number",
      message: `The transaction number format is invalid for ${bankName} (expected ${expected}).`,
    };
  }
  return null;
}
