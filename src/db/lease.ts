import { randomUUID } from "node:crypto";
import pg from "pg";
import type { HeldLock } from "./advisory-lock.js";

/** A holder that stops renewing (killed, cut off) loses the lease this long after its last renewal. */
export const LEASE_TTL_MS = 4_000;
const RENEWALS_PER_TTL = 3;

const TAKE = `insert into leases (name, holder, expires_at) values ($1, $2, now() + $3 * interval '1 millisecond')
  on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
  where leases.expires_at < now()
  returning holder`;
const RENEW = `update leases set expires_at = now() + $3 * interval '1 millisecond' where name = $1 and holder = $2`;
const RELEASE = "delete from leases where name = $1 and holder = $2";

/**
 * Takes the lease `name` (a row of `leases`), or null while another holder's has not expired. Unlike a
 * session advisory lock it needs no connection of its own, so it holds behind a transaction-mode pooler:
 * every statement stands alone. The holder renews it; when a renewal finds it taken, or none succeeds
 * before it would expire, `lost` settles.
 */
export async function tryTakeLease(
  databaseUrl: string,
  name: string,
  ttlMs = LEASE_TTL_MS,
): Promise<HeldLock | null> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  // An idle connection the server or the pooler closes is opened again by the next statement.
  pool.on("error", () => undefined);
  const holder = randomUUID();
  let renewedAt = Date.now();
  try {
    const taken = await pool.query(TAKE, [name, holder, ttlMs]);
    if (taken.rowCount === 0) {
      await pool.end();
      return null;
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  let markLost: () => void = () => undefined;
  const lost = new Promise<void>((resolve) => {
    markLost = resolve;
  });
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const renew = async () => {
    const attemptAt = Date.now();
    try {
      const renewed = await pool.query(RENEW, [name, holder, ttlMs]);
      if (renewed.rowCount === 0) return markLost();
      renewedAt = attemptAt;
    } catch {
      if (Date.now() - renewedAt >= ttlMs) return markLost();
    }
    if (!ended) timer = setTimeout(renew, ttlMs / RENEWALS_PER_TTL);
  };
  timer = setTimeout(renew, ttlMs / RENEWALS_PER_TTL);
  return {
    lost,
    async release() {
      ended = true;
      clearTimeout(timer);
      await pool.query(RELEASE, [name, holder]).catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
