import type { BankCode } from "./codes.js";

export type UnavailableReason = "timeout" | "network" | "server_error" | "too_large" | "redirect";

/** The bank could not be reached or kept failing (network, timeout, 5xx after retries): 503. */
export class BankUnavailableError extends Error {
  readonly code = "bank_unavailable";
  constructor(
    readonly bank: BankCode,
    readonly reason: UnavailableReason,
    options?: ErrorOptions,
  ) {
    super(`${bank} is unavailable (${reason})`, options);
    this.name = "BankUnavailableError";
  }
}

/** The bank answered, but not in a shape we can read: 502. `snippet` is for logs only. */
export class ReceiptFormatError extends Error {
  readonly code = "receipt_format";
  constructor(
    readonly bank: BankCode,
    message: string,
    readonly snippet?: string,
  ) {
    super(message);
    this.name = "ReceiptFormatError";
  }
}
