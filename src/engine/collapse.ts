import { BankUnavailableError, ReceiptFormatError } from "../banks/errors.js";
import type { LookupOutcome } from "../banks/types.js";

/**
 * Identical verifications of one branch in flight in this process (other processes and instances are kept
 * to one record by confirmed_receipts' primary key). Why a second layer beside the gateway's shared bank
 * request: that one ends when the bank answers, before the leader's record is written; followers here wait
 * until it is written, so their own pre-check finds it (a duplicate, no quota, no bank request) instead of
 * racing it to that key. A follower reuses the leader's bank answer, and shares its bank failure too; it
 * asks on its own only when the leader got no answer for a reason of its own (its client left, its quota
 * ran out).
 */
export interface Leaders {
  /**
   * Runs `work` as the leader of `key`, or as a follower with the leader's answer once the leader is done.
   * `work` calls `answered` with the bank's answer when it leads. A follower stops waiting when `signal` fires;
   * its wait for the leader goes through `waiting` (the leader's time is mostly the bank's).
   */
  run<T>(
    key: string,
    signal: AbortSignal,
    work: (shared: LookupOutcome | null, answered: (answer: LookupOutcome) => void) => Promise<T>,
    waiting?: (leader: Promise<Led>) => Promise<Led>,
  ): Promise<T>;
}

/** What a leader leaves its followers: its bank's answer, or the bank's failure. */
export interface Led {
  answer: LookupOutcome | null;
  failure: BankUnavailableError | ReceiptFormatError | null;
}

export function createLeaders(): Leaders {
  const leaders = new Map<string, Promise<Led>>();
  return {
    async run(key, signal, work, waiting = (leader) => leader) {
      const leader = leaders.get(key);
      if (leader) {
        const led = await waiting(untilAborted(leader, signal));
        if (led.failure) throw led.failure;
        return work(led.answer, () => undefined);
      }
      let led: Led = { answer: null, failure: null };
      let settle: (led: Led) => void = () => undefined;
      leaders.set(key, new Promise((resolve) => (settle = resolve)));
      try {
        return await work(null, (answer) => {
          led = { answer, failure: null };
        });
      } catch (error) {
        if (led.answer === null && isBankFailure(error)) led = { answer: null, failure: error };
        throw error;
      } finally {
        leaders.delete(key);
        settle(led);
      }
    },
  };
}

function isBankFailure(error: unknown): error is BankUnavailableError | ReceiptFormatError {
  return error instanceof BankUnavailableError || error instanceof ReceiptFormatError;
}

/** `promise`, or the signal's reason as soon as it fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
