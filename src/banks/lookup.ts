import { BankUnavailableError, type UnavailableReason } from "./errors.js";
import type { BankHttpClient } from "./http.js";
import type { BankAdapter, BankRequest, BankResponse, LookupOutcome, LookupTarget } from "./types.js";

export interface LookupOptions {
  /** Aborts the lookup, including a pending backoff. */
  signal?: AbortSignal;
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
  { signal, sleep = (ms: number) => abortableSleep(ms, signal) }: LookupOptions,
): Promise<LookupOutcome> {
  const attempts = 1 + Math.max(0, adapter.network.retries);
  for (let attempt = 0; ; attempt++) {
    const last = attempt === attempts - 1;
    try {
      const response: BankResponse = await client.send(adapter, bankRequest, signal);
      if (!last && adapter.isTransient?.(response)) {
        await backoff(adapter, attempt, sleep);
        continue;
      }
      return await adapter.parseResponse(response, target);
    } catch (error) {
      if (last || signal?.aborted || !isRetryable(error)) throw error;
      await backoff(adapter, attempt, sleep);
    }
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof BankUnavailableError && RETRYABLE.has(error.reason);
}

function backoff(adapter: BankAdapter, attempt: number, sleep: (ms: number) => Promise<void>): Promise<void> {
  const base = adapter.network.backoffMs * 2 ** attempt;
  // Jitter keeps many lookups that failed together from hammering the bank in lockstep.
  return sleep(Math.round(base * (1 + Math.random() * JITTER)));
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
