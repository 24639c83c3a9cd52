/**
 * Fixed-window attempt counting per key (an API key id, a Telegram user id), in this process's memory.
 * Windows are short, so a restart forgetting them costs nothing; with several instances each counts its own.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterS: number;
  /** This attempt is the first one over the limit in its window (say so once, then stay quiet). */
  firstRefused: boolean;
}

export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  #lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt for `key` and says whether it is within the limit. */
  hit(key: string): RateDecision {
    const now = this.now();
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    const retryAfterS = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      retryAfterS,
      firstRefused: window.count === this.limit + 1,
    };
  }

  /** Drops ended windows now and then, so idle keys do not accumulate. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < this.windowMs) return;
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) {
      if (now - window.start >= this.windowMs) this.#windows.delete(key);
    }
  }
}
