import { AnswerTimes } from "../banks/answer-times.js";
import type { BankCode } from "../banks/codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../banks/errors.js";
import type { BankHttpClient } from "../banks/http.js";
import { lookupAtBank } from "../banks/lookup.js";
import type { BankAdapters } from "../banks/registry.js";
import type { LookupOutcome, LookupTarget } from "../banks/types.js";
import type { Metrics } from "../metrics/registry.js";
import { type BankBreakers, CircuitOpenError } from "./circuit-breaker.js";

/** Where lookups go: the banks themselves, or (for sandbox keys) the sandbox the composition root builds. */
export interface BankGateway {
  lookup(bank: BankCode, target: LookupTarget, options?: LookupLimits): Promise<LookupOutcome>;
  close(): Promise<void>;
}

/** What bounds one caller's lookup. */
export interface LookupLimits {
  /** The caller gives up (deadline, client gone, shutdown): it stops waiting, with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Epoch ms by which the caller needs the answer; attempts and retries are fitted into it. */
  deadline?: number | undefined;
}

/** One bank request and the callers waiting for it. */
interface SharedLookup {
  answer: Promise<LookupOutcome>;
  abort: AbortController;
  waiting: number;
}

export interface GatewayOptions {
  /** Per-bank circuit breakers: an open one refuses lookups at once. */
  breakers?: BankBreakers;
  /** Latency and errors of every lookup that reaches a bank. */
  metrics?: Metrics;
}

/**
 * Lookups through one HTTP client. Concurrent lookups of the same (bank, reference, account, token) share
 * one bank request and its outcome, failure included: a burst of identical verifications costs the bank one
 * call, and counts once for its breaker and its metrics. The request runs within the first caller's
 * deadline and is aborted only when every caller has given up.
 */
export function createBankGateway(
  adapters: BankAdapters,
  client: BankHttpClient,
  options: GatewayOptions = {},
): BankGateway {
  const { breakers, metrics } = options;
  const answerTimes = new AnswerTimes();
  const inFlight = new Map<string, SharedLookup>();

  async function ask(bank: BankCode, target: LookupTarget, limits: LookupLimits): Promise<LookupOutcome> {
    try {
      breakers?.admit(bank);
    } catch (error) {
      if (error instanceof CircuitOpenError) metrics?.breakerRejections.inc({ bank });
      throw error;
    }
    const stop = metrics?.bankLookupSeconds.startTimer({ bank });
    try {
      const outcome = await lookupAtBank(adapters[bank], target, client, { ...limits, answerTimes });
      breakers?.succeeded(bank);
      return outcome;
    } catch (error) {
      // A caller giving up says nothing about the bank's health.
      if (!limits.signal?.aborted) breakers?.failed(bank, error);
      if (error instanceof BankUnavailableError) metrics?.bankErrors.inc({ bank, kind: error.reason });
      if (error instanceof ReceiptFormatError) metrics?.bankErrors.inc({ bank, kind: "garbage" });
      throw error;
    } finally {
      stop?.();
    }
  }

  function start(key: string, bank: BankCode, target: LookupTarget, deadline?: number): SharedLookup {
    const abort = new AbortController();
    const shared: SharedLookup = {
      abort,
      waiting: 0,
      answer: ask(bank, target, { signal: abort.signal, deadline }),
    };
    inFlight.set(key, shared);
    const forget = () => {
      if (inFlight.get(key) === shared) inFlight.delete(key);
    };
    shared.answer.then(forget, forget);
    return shared;
  }

  /** Waits for the shared answer until the caller's own signal fires; the last caller to leave aborts it. */
  function wait(key: string, shared: SharedLookup, signal?: AbortSignal): Promise<LookupOutcome> {
    shared.waiting++;
    return new Promise((resolve, reject) => {
      let done = false;
      const leave = () => {
        if (done) return;
        done = true;
        signal?.removeEventListener("abort", leave);
        if (--shared.waiting === 0 && signal?.aborted) {
          // Nobody waits any more: a newcomer must not join a request that is being aborted.
          if (inFlight.get(key) === shared) inFlight.delete(key);
          shared.abort.abort(signal.reason);
        }
        if (signal?.aborted) reject(signal.reason);
      };
      if (signal?.aborted) return leave();
      signal?.addEventListener("abort", leave, { once: true });
      shared.answer.then(
        (outcome) => {
          leave();
          resolve(outcome);
        },
        (error: unknown) => {
          leave();
          reject(error);
        },
      );
    });
  }

  return {
    lookup(bank, target, limits = {}) {
      const key = JSON.stringify([bank, target.transactionNumber, target.account, target.token]);
      const shared = inFlight.get(key) ?? start(key, bank, target, limits.deadline);
      return wait(key, shared, limits.signal);
    },
    close: () => client.close(),
  };
}
