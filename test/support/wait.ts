/**
 * Waiting for what a test is about (an event, a state) instead of for time. Every wait has a bound, but a
 * generous one: it is there to turn a real failure into a message rather than a silent test timeout, and
 * a slow or loaded machine never comes near it. Timing figures belong in the bench, not here.
 */

/** The default bound of a wait: far beyond anything a loaded 2-core machine needs, well inside a test's. */
export const WAIT_MS = 30_000;

/** How often a condition without an event is checked again. */
const POLL_MS = 10;

export interface WaitOptions {
  /** Default WAIT_MS. */
  timeoutMs?: number;
  /** What was seen instead, for the failure's message. */
  seen?: () => string | Promise<string>;
}

/**
 * Resolves with the condition's first truthy value; checks it at once and then every few milliseconds.
 * For states nothing announces (a database row, a counter): prefer an event where there is one.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  what: string,
  options: WaitOptions = {},
): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? WAIT_MS;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) {
      const seen = options.seen ? `\n${await options.seen()}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The promise's outcome, or a rejection naming `what` once `timeoutMs` has passed: for things that must
 * happen (a close, an answer) and would otherwise only show as a test timeout.
 */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A promise settled from outside: a gate a test opens, or a signal code under test gives. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Lets every callback already queued run (promise jobs, then the I/O and timer callbacks due now): for
 * asserting that something has *not* happened after code that involves no I/O and no timer.
 */
export function drained(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
