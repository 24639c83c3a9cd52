import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { EntityManager } from "@mikro-orm/postgresql";

// The idempotency_keys table (src/db/entities/idempotency-key.ts) in plain SQL: the claim must be one
// statement, so that PostgreSQL's primary key alone decides between concurrent requests, in any process.

/** One Idempotency-Key of one API key. */
export interface KeyScope {
  apiKeyId: number;
  key: string;
}

export interface KeyTimes {
  /** How long an answer is kept and replayed (24 hours). */
  ttlMs: number;
  /**
   * How long a claim's lease lasts from its last renewal (claim-leases.ts renews it while the request
   * runs): a pending claim whose lease ran out was left by a process that died, and the same request may
   * take it over.
   */
  leaseMs: number;
  /** Epoch ms until which a request waits for another one holding its key; then it gives up. */
  waitUntil: number;
  /** Pause between two looks at a pending key. */
  pollMs: number;
}

export type Acquired =
  /** This request holds the key: it runs, then stores its answer or releases the key. */
  | { kind: "claimed"; attempt: string }
  /** The answer of the request that first used the key, with the same request. */
  | { kind: "answered"; status: number; body: string }
  /** The key was used with another request. */
  | { kind: "mismatch" }
  /** The first request was still running when `waitUntil` came. */
  | { kind: "in_progress" };

/** Expired rows deleted by each claim, oldest first: more than one, so cleaning keeps up with claiming. */
const CLEANUP_BATCH = 20;

/**
 * Claims the key for this request, or finds what holds it. A pending key with the same request is waited
 * for (polled) until it is answered, released (then claimed here) or `waitUntil` passes.
 */
export async function acquireKey(
  em: EntityManager,
  scope: KeyScope,
  fingerprint: string,
  times: KeyTimes,
): Promise<Acquired> {
  for (;;) {
    const attempt = await claim(em, scope, fingerprint, times);
    if (attempt) return { kind: "claimed", attempt };
    const held = await read(em, scope);
    // Gone between the two statements (released, or deleted as expired): try to claim it again.
    if (!held) continue;
    if (held.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (held.status !== null && held.body !== null) {
      return { kind: "answered", status: held.status, body: held.body };
    }
    if (Date.now() + times.pollMs > times.waitUntil) return { kind: "in_progress" };
    await sleep(times.pollMs);
  }
}

/**
 * Keeps the answer of the attempt that claimed the key. False when the claim was lost (its lease ran out
 * and a retry took it over): nothing is stored, and the caller must not record anything either.
 */
export async function storeAnswer(
  em: EntityManager,
  scope: KeyScope,
  attempt: string,
  status: number,
  body: string,
): Promise<boolean> {
  const stored: unknown[] = await em.execute(
    `update idempotency_keys set status = ?, body = ?::json
      where api_key_id = ? and "key" = ? and attempt = ?::uuid and status is null
      returning 1`,
    [status, body, scope.apiKeyId, scope.key, attempt],
  );
  return stored.length > 0;
}

/** A claim this process holds: its lease is renewed until it is answered or released. */
export interface HeldClaim {
  scope: KeyScope;
  attempt: string;
}

/** Extends the leases of the claims given, in one statement (by primary key). */
export async function renewLeases(em: EntityManager, claims: HeldClaim[], leaseMs: number): Promise<void> {
  // One JSON parameter: knex would spread an array parameter into a list of them.
  const held = claims.map(({ scope, attempt }) => ({ api_key_id: scope.apiKeyId, key: scope.key, attempt }));
  await em.execute(
    `update idempotency_keys k set lease_until = now() + ?::int * interval '1 millisecond'
       from json_to_recordset(?::json) as held(api_key_id int, "key" text, attempt uuid)
      where k.api_key_id = held.api_key_id and k."key" = held."key" and k.attempt = held.attempt
        and k.status is null`,
    [leaseMs, JSON.stringify(held)],
  );
}

/** Frees the key for a retry after an answer that is not kept (nothing was recorded). */
export async function releaseKey(em: EntityManager, scope: KeyScope, attempt: string): Promise<void> {
  await em.execute(
    `delete from idempotency_keys where api_key_id = ? and "key" = ? and attempt = ?::uuid and status is null`,
    [scope.apiKeyId, scope.key, attempt],
  );
}

/**
 * Inserts a pending row, or takes over one that expired or whose lease ran out (the latter only for the
 * same request: the key stays bound to its first request). Returns the new attempt's id when this request holds
 * the key. Deletes a few expired rows of any API key on the way: no timer, and cheap (oldest first, by index).
 */
async function claim(
  em: EntityManager,
  scope: KeyScope,
  fingerprint: string,
  times: KeyTimes,
): Promise<string | null> {
  const attempt = randomUUID();
  const rows: { attempt: string }[] = await em.execute(
    `with expired as (
       delete from idempotency_keys where ctid in (
         select ctid from idempotency_keys
          where created_at < now() - ?::int * interval '1 millisecond'
            and not (api_key_id = ? and "key" = ?)
          order by created_at limit ${CLEANUP_BATCH}
          for update skip locked))
     insert into idempotency_keys as k (api_key_id, "key", fingerprint, attempt, lease_until)
     values (?, ?, ?, ?::uuid, now() + ?::int * interval '1 millisecond')
     on conflict (api_key_id, "key") do update
       set fingerprint = excluded.fingerprint, attempt = excluded.attempt, status = null, body = null,
           created_at = now(), lease_until = excluded.lease_until
       where k.created_at < now() - ?::int * interval '1 millisecond'
          or (k.status is null and k.fingerprint = excluded.fingerprint and k.lease_until < now())
     returning attempt`,
    [
      times.ttlMs,
      scope.apiKeyId,
      scope.key,
      scope.apiKeyId,
      scope.key,
      fingerprint,
      attempt,
      times.leaseMs,
      times.ttlMs,
    ],
  );
  return rows[0]?.attempt ?? null;
}

interface HeldKey {
  fingerprint: string;
  status: number | null;
  /** As stored: the text of the answer's JSON. */
  body: string | null;
}

async function read(em: EntityManager, scope: KeyScope): Promise<HeldKey | null> {
  const rows: HeldKey[] = await em.execute(
    `select fingerprint, status, body::text as body from idempotency_keys where api_key_id = ? and "key" = ?`,
    [scope.apiKeyId, scope.key],
  );
  return rows[0] ?? null;
}
