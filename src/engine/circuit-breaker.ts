import { BANK_CODES, type BankCode } from "../banks/codes.js";
import { BankUnavailableError, ReceiptFormatError, type UnavailableReason } from "../banks/errors.js";
import type { BreakerState } from "../breaker-state.js";

export type { BreakerState };

export interface BreakerSettings {
  /** Consecutive failed lookups (outages, unreadable answers) that open a bank's breaker. */
  failures: number;
  /** How long an open breaker refuses lookups before it lets one probe through. */
  cooldownMs: number;
}

/**
 * Refused without asking the bank: its breaker is open. A BankUnavailableError, so callers answer it like
 * an outage (503, nothing consumed or recorded); `reason` is what the bank last failed with.
 */
export class CircuitOpenError extends BankUnavailableError {
  constructor(bank: BankCode, lastReason: UnavailableReason) {
    super(bank, lastReason);
    this.message = `${bank} is unavailable (circuit open after ${lastReason})`;
    this.name = "CircuitOpenError";
  }
}

/** One breaker per bank, in front of the live bank requests. */
export interface BankBreakers {
  /** Throws CircuitOpenError when the bank may not be asked now; else the caller must report the result. */
  admit(bank: BankCode): void;
  /** The bank answered (found or not found). */
  succeeded(bank: BankCode): void;
  /** The lookup failed; only outages and unreadable answers count against the bank. */
  failed(bank: BankCode, error: unknown): void;
  /** The state as the next request would see it: an open breaker past its cooldown is half-open. */
  state(bank: BankCode): BreakerState;
  states(): Record<BankCode, BreakerState>;
}

interface Breaker {
  phase: "closed" | "open" | "half_open";
  failures: number;
  openedAt: number;
  /** Half-open: the one probe is in flight. */
  probing: boolean;
  lastReason: UnavailableReason;
}

/**
 * Breakers that open after `failures` consecutive failed lookups of a bank. While open, lookups of that
 * bank fail at once; after `cooldownMs` one probe is let through: its success closes the breaker, its
 * failure opens it again for another cooldown.
 */
export function createBankBreakers(settings: BreakerSettings, now: () => number = Date.now): BankBreakers {
  const breakers = new Map<BankCode, Breaker>(
    BANK_CODES.map((code) => [
      code,
      { phase: "closed", failures: 0, openedAt: 0, probing: false, lastReason: "network" },
    ]),
  );
  const of = (bank: BankCode): Breaker => {
    const breaker = breakers.get(bank);
    if (!breaker) throw new Error(`no breaker for ${bank}`);
    return breaker;
  };
  const cooled = (breaker: Breaker) => now() - breaker.openedAt >= settings.cooldownMs;

  function open(breaker: Breaker): void {
    breaker.phase = "open";
    breaker.openedAt = now();
    breaker.probing = false;
  }

  function state(bank: BankCode): BreakerState {
    const breaker = of(bank);
    if (breaker.phase === "open" && cooled(breaker)) return "half_open";
    return breaker.phase;
  }

  return {
    admit(bank) {
      const breaker = of(bank);
      if (breaker.phase === "closed") return;
      if (breaker.phase === "open" && cooled(breaker)) breaker.phase = "half_open";
      if (breaker.phase === "half_open" && !breaker.probing) {
        breaker.probing = true;
        return;
      }
      throw new CircuitOpenError(bank, breaker.lastReason);
    },
    succeeded(bank) {
      const breaker = of(bank);
      breaker.phase = "closed";
      breaker.failures = 0;
      breaker.probing = false;
    },
    failed(bank, error) {
      const breaker = of(bank);
      if (!(error instanceof BankUnavailableError || error instanceof ReceiptFormatError)) {
        // Not the bank's fault (a bug, an abort): it neither counts nor uses up the probe.
        breaker.probing = false;
        return;
      }
      breaker.lastReason = error instanceof BankUnavailableError ? error.reason : "server_error";
      breaker.failures += 1;
      if (breaker.phase === "half_open" || breaker.failures >= settings.failures) open(breaker);
    },
    state,
    states: () =>
      Object.fromEntries(BANK_CODES.map((code) => [code, state(code)])) as Record<BankCode, BreakerState>,
  };
}
