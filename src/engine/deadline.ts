import type { BankCode } from "../banks/codes.js";
import { BankUnavailableError } from "../banks/errors.js";
import { linkAbort } from "../cancellation.js";
import { ServiceUnavailableError } from "../errors.js";

/** The bounds of one verification's bank lookup: its deadline and one signal for every reason to stop. */
export interface LookupBounds {
  /** Epoch ms by which the answer is due. */
  deadline: number;
  /** Fires at the deadline or with the first of `also` (its own reason). */
  signal: AbortSignal;
  /** `work`, counted as time spent waiting for the bank (its own lookup, or another request's it shares). */
  waitingForBank<T>(work: Promise<T>): Promise<T>;
  dispose(): void;
}

/**
 * At the deadline the lookup is aborted with the bank's "not responding" error (the contract's 503) when
 * the bank was being waited for, and with the service's own 503 otherwise (the database, a queue): no
 * answer blames a bank that was not the slow part. The other signals (the client gone, the service
 * stopping) abort it with their own reasons.
 */
export function boundLookup(
  bank: BankCode,
  deadline: number,
  also: readonly (AbortSignal | undefined)[],
): LookupBounds {
  const bounds = new AbortController();
  let bankWaits = 0;
  const handle = setTimeout(
    () =>
      bounds.abort(bankWaits > 0 ? new BankUnavailableError(bank, "timeout") : new ServiceUnavailableError()),
    Math.max(0, deadline - Date.now()),
  );
  const unlink = linkAbort(bounds, also);
  return {
    deadline,
    signal: bounds.signal,
    async waitingForBank(work) {
      bankWaits += 1;
      try {
        return await work;
      } finally {
        bankWaits -= 1;
      }
    },
    dispose: () => {
      clearTimeout(handle);
      unlink();
    },
  };
}
