import { type HeldLock, tryHoldAdvisoryLock } from "./advisory-lock.js";
import type { DatabasePooler } from "./connection-limits.js";
import { tryTakeLease } from "./lease.js";

/** The lock one process of all the instances holds while it polls Telegram. */
export interface PollingLock {
  /** The lock, or null while another process holds it. */
  take(name: string): Promise<HeldLock | null>;
  /** How long a process that did not get it waits before asking again. */
  retryMs: number;
}

/**
 * A session advisory lock, freed the moment its holder's connection goes; behind a transaction-mode
 * pooler, where no session lasts, a lease that expires LEASE_TTL_MS after its holder stops renewing it.
 * Either way another instance takes over within 10 s.
 */
export function pollingLock(pooler: DatabasePooler, databaseUrl: string): PollingLock {
  return pooler === "transaction"
    ? { take: (name) => tryTakeLease(databaseUrl, name), retryMs: 2_000 }
    : { take: (name) => tryHoldAdvisoryLock(databaseUrl, name), retryMs: 5_000 };
}
