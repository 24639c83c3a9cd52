import type { BankCode } from "../banks/codes.js";
import { BankUnavailableError } from "../banks/errors.js";
import { linkAbort } from "../cancellation.js";

/** The bounds of one verification's bank lookup: its deadline and one signal for every reason to stop. */
export interface LookupBounds {
  /** Epoch ms by which the answer is due. */
  deadline: number;
  /** Fires at the deadline (reason: the bank's 503) or with the first of `also` (its own reason). */
  signal: AbortSignal;
  dispose(): void;
}

/**
 * At the deadline the lookup is aborted with the bank's "not responding" error, the contract's 503; the
 * other signals (the client gone, the service stopping) abort it with their own reasons.
 */
export function boundLookup(
  bank: BankCode,
  deadline: number,
  also: readonly (AbortSignal | undefined)[],
): LookupBounds {
  const bounds = new AbortController();
  const handle = setTimeout(
    () => bounds.abort(new BankUnavailableError(bank, "timeout")),
    Math.max(0, deadline - Date.now()),
  );
  const unlink = linkAbort(bounds, also);
  return {
    deadline,
    signal: bounds.signal,
    dispose: () => {
      clearTimeout(handle);
      unlink();
    },
  };
}
