import type { AnswerTimes } from "./answer-times.js";
import { BankUnavailableError, type UnavailableReason } from "./errors.js";
import type { BankHttpClient } from "./http.js";
import type { BankAdapter, BankRequest, BankResponse, LookupOutcome, LookupTarget } from "./types.js";

export interface LookupOptions {
  /** Aborts the lookup, including a pending backoff. */
  signal?: AbortSignal | undefined;
  /**
   * When the verification must have its answer (epoch ms): every attempt gets at most the time left, and a
   * retry starts only when the bank's typical answer time (from `answerTimes`) still fits after its backoff.
   */
  deadline?: number | undefined;
  /** Observed answer times, recorded here and read for the retry decision. */
  answerTimes?: AnswerTimes | undefined;
  /** Injected in tests; defaults to a timer that honours `signal`. */
  sleep?: (ms: number) => Promise<void>;
}

// Only failures that may clear up on their own are retried; a redirect or a huge body will not change.
const RETRYABLE: ReadonlySet<UnavailableReason> = new Set(["timeout", "network", "server_error"]);
const JITTER = 0.2;

/**
 * One lookup at one bank: 1 + network.retries attempts with exponential backoff on transient failures, then
 * the adapter's fallback address if the first said "not found". Found / not found are values; outages and
 * unreadable answers are thrown (errors.ts).
 */
export async function lookupAtBank(
  adapter: BankAdapter,
  target: LookupTarget,
  client: BankHttpClient,
  options: LookupOptions = {},
): Promise<LookupOutcome> {
  const outcome = await ask(adapter, adapter.buildRequest(target), target, client, options);
  const fallback = outcome.kind === "not_found" ? adapter.fallbackRequest?.(target) : null;
  return fallback ? ask(adapter, fallback, target, client, options) : outcome;
}

// --- internal helpers ---

async function ask(
  adapter: BankAdapter,
  bankRequest: BankRequest,
  target: LookupTarget,
  client: BankHttpClient,
  { signal, deadline = Number.POSITIVE_INFINITY, answerTimes, sleep }: LookupOptions,
): Promise<LookupOutcome> {
  const pause = sleep ?? ((ms: number) => abortableSleep(ms, signal));
  const attempts = 1 + Math.max(0, adapter.network.retries);
  for (let attempt = 0; ; attempt++) {
    const last = attempt === attempts - 1;
    let delay: number;
    try {
      const started = Date.now();
      const timeoutMs = Math.min(adapter.network.timeoutMs, deadline - started);
      if (timeoutMs <= 0) throw new BankUnavailableError(adapter.code, "timeout");
      const response: BankResponse = await client.send(adapter, bankRequest, signal, timeoutMs);
      const transient = !last && adapter.isTransient?.(response) === true;
      delay = retryDelay(adapter, attempt);
      if (!transient || !fits(delay)) {
        const outcome = await adapter.parseResponse(response, target);
        // Only answers that could be read count: a quick 503 says nothing about how long a real one takes.
        answerTimes?.record(adapter.code, Date.now() - started);
        return outcome;
      }
    } catch (error) {
      if (last || signal?.aborted || !isRetryable(error)) throw error;
      delay = retryDelay(adapter, attempt);
      if (!fits(delay)) throw error;
    }
    await pause(delay);
  }

  /** A retry after `delayMs` is worth starting when the bank's typical answer still fits before the deadline. */
  function fits(delayMs: number): boolean {
    const typical = answerTimes?.typical(adapter.code) ?? 0;
    return Date.now() + delayMs + typical < deadline;
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof BankUnavailableError && RETRYABLE.has(error.reason);
}

function retryDelay(adapter: BankAdapter, attempt: number): number {
  const base = adapter.network.backoffMs * 2 ** attempt;
  // Jitter keeps many lookups that failed together from hammering the bank in lockstep.
  return Math.round(base * (1 + Math.random() * JITTER));
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
