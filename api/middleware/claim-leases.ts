import type { MikroORM } from "@mikro-orm/postgresql";
import { type HeldClaim, renewLeases } from "./idempotency-keys.js";

/** Renews the leases of the Idempotency-Key claims this process is working on. */
export interface LeaseKeeper {
  /** Keeps the claim's lease alive until the returned function is called. */
  hold(claim: HeldClaim): () => void;
}

export interface LeaseTimes {
  /** A lease lasts this long after its renewal: a dead process's claims are free within it. */
  leaseMs: number;
  /** Renewed this often: a pause of the event loop up to leaseMs − renewEveryMs costs no claim. */
  renewEveryMs: number;
}

/**
 * One timer for every claim of the process, running only while it holds some, and one statement a tick
 * for all of them. A renewal that fails (the database is away, and the request with it) is not reported: the
 * next tick tries again, and a claim whose lease ran out is only taken over by the same request's retry.
 */
export function keepLeases(orm: MikroORM, times: LeaseTimes): LeaseKeeper {
  const held = new Set<HeldClaim>();
  let timer: NodeJS.Timeout | undefined;
  let renewing = false;

  const renew = async () => {
    if (renewing || held.size === 0) return;
    renewing = true;
    try {
      await renewLeases(orm.em.fork(), [...held], times.leaseMs);
    } catch {
      // Not reported: the next tick tries again.
    } finally {
      renewing = false;
    }
  };

  return {
    hold(claim) {
      held.add(claim);
      if (!timer) {
        timer = setInterval(renew, times.renewEveryMs);
        // The leases matter only while requests run, and those keep the process alive themselves.
        timer.unref();
      }
      return () => {
        held.delete(claim);
        if (held.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  };
}
