import type { BankCode } from "../banks/codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../banks/errors.js";
import { QuotaExceededError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics/registry.js";
import { CircuitOpenError } from "./circuit-breaker.js";
import type { VerificationOutcome } from "./types.js";

// What the engine reports about each verification: outcome counts on /metrics, failed lookups in the log.

export function countOutcome(
  metrics: Metrics | undefined,
  bank: BankCode,
  sandbox: boolean,
  outcome: VerificationOutcome["kind"],
): void {
  metrics?.verifications.inc({ bank, sandbox: String(sandbox), outcome });
}

/** Quota refusals and the bank's failures (503 unavailable, 502 unreadable) counted by kind. */
export function countFailure(metrics: Metrics | undefined, bank: BankCode, sandbox: boolean, error: unknown) {
  const labels = { bank, sandbox: String(sandbox) };
  if (error instanceof QuotaExceededError) metrics?.quotaRejections.inc();
  if (error instanceof BankUnavailableError)
    metrics?.verifications.inc({ ...labels, outcome: "bank_unavailable" });
  if (error instanceof ReceiptFormatError)
    metrics?.verifications.inc({ ...labels, outcome: "bank_unreadable" });
}

/** A rejection handler for a lookup: logs a bank failure with its reason, then rethrows whatever failed. */
export function logLookupFailure(logger: Logger, bank: BankCode, reference: string) {
  return (error: unknown): never => {
    if (error instanceof BankUnavailableError || error instanceof ReceiptFormatError) {
      const reason =
        error instanceof CircuitOpenError
          ? "circuit_open"
          : error instanceof BankUnavailableError
            ? error.reason
            : error.message;
      logger.warn({ bank, reference, error: error.code, reason }, "bank lookup failed");
    }
    throw error;
  };
}
