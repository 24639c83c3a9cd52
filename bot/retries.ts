import { randomBytes } from "node:crypto";
import type { VerifyInput } from "../src/engine/types.js";

const KEPT_MS = 60 * 60 * 1000;
const MAX_KEPT = 2_000;

/**
 * Verifications a bank did not answer in time, kept so the card's "Try again" button can run the same one
 * again without the cashier forwarding the receipt a second time. Kept in memory for an hour on the
 * instance that made the card: after a restart the button asks for the receipt again, which loses nothing
 * (nothing was recorded for a verification that timed out).
 */
export interface RetryStore {
  /** The id for the button's callback data. */
  keep(branchId: number, input: VerifyInput): string;
  /** The input kept under `id` for this branch, once: a second press finds nothing. */
  take(id: string, branchId: number): VerifyInput | null;
}

export function createRetryStore(now: () => number = Date.now): RetryStore {
  const kept = new Map<string, { branchId: number; input: VerifyInput; until: number }>();

  function forgetExpired(): void {
    const time = now();
    for (const [id, entry] of kept) {
      if (entry.until > time && kept.size <= MAX_KEPT) break;
      kept.delete(id);
    }
  }

  return {
    keep(branchId, input) {
      forgetExpired();
      const id = randomBytes(9).toString("base64url");
      kept.set(id, { branchId, input, until: now() + KEPT_MS });
      return id;
    },
    take(id, branchId) {
      forgetExpired();
      const entry = kept.get(id);
      if (!entry || entry.branchId !== branchId) return null;
      kept.delete(id);
      return entry.input;
    },
  };
}
