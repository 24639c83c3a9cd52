import type { Knex } from "@mikro-orm/postgresql";

/**
 * What stands between the service and PostgreSQL (DATABASE_POOLER): "session", a connection is the
 * service's until it closes it (directly, or a pooler in session mode); "transaction", a pooler such as
 * PgBouncer in transaction mode lends a server connection for one transaction at a time, so nothing may
 * outlive a transaction: no prepared statement by name, no LISTEN, no session lock, no startup setting.
 */
export type DatabasePooler = "session" | "transaction";

/** Time limits on the database, from DB_ACQUIRE_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS. */
export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, including opening a new one. */
  acquireTimeoutMs: number;
  /** One statement; PostgreSQL cancels it after this (SQLSTATE 57014). */
  statementTimeoutMs: number;
}

// A stalled server (stopped, swapping, cut off) cannot run its own statement_timeout: the client stops
// waiting this long after it, so a live server always gets to cancel first.
const CLIENT_WAIT_AFTER_STATEMENT_MS = 1_000;
// Idle pooled connections are probed by the kernel, so a server that vanished (host down, NAT dropped)
// is noticed instead of a query waiting on a dead socket.
const KEEPALIVE_DELAY_MS = 10_000;

/** The pg connection settings every pooled connection gets (TCP keepalive always; timeouts when given). */
export function connectionSettings(
  timeouts: DatabaseTimeouts | undefined,
  pooler: DatabasePooler = "session",
): Record<string, unknown> {
  if (!timeouts) return { keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS };
  return {
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    connectionTimeoutMillis: timeouts.acquireTimeoutMs,
    // A startup parameter PgBouncer refuses; behind it the role's own statement_timeout applies.
    ...(pooler === "session" ? { statement_timeout: timeouts.statementTimeoutMs } : {}),
    query_timeout: timeouts.statementTimeoutMs + CLIENT_WAIT_AFTER_STATEMENT_MS,
  };
}

/** The knex/tarn pool settings for the given limits. */
export function poolSettings(timeouts: DatabaseTimeouts | undefined): Record<string, unknown> {
  if (!timeouts) return {};
  return {
    acquireTimeoutMillis: timeouts.acquireTimeoutMs,
    createTimeoutMillis: timeouts.acquireTimeoutMs,
    validate: answeredEverything,
  };
}

/**
 * Pooled connections (knex's id of each) on which a query went unanswered: pg's query_timeout gave up on a
 * stalled server. Such a connection may sit inside a transaction whose ROLLBACK timed out in pg's queue and
 * was never sent. When the server resumes, the late answer makes the connection look ready, but every later
 * statement on it would run in that old transaction (or fail in it, once the server cancelled it).
 */
const unanswered = new Set<string>();

/** Notes the connection of every statement that pg's query_timeout gave up on (knex's query-error event). */
export function watchUnansweredQueries(knex: Knex): void {
  knex.on("query-error", (error: unknown, query: { __knexUid?: unknown }) => {
    if (error instanceof Error && /Query read timeout/.test(error.message)) {
      if (typeof query.__knexUid === "string") unanswered.add(query.__knexUid);
    }
  });
}

/**
 * A connection whose query went unanswered, now or ever, is never lent out again: the pool destroys it and
 * opens a fresh one, which fails fast while the server is still stalled.
 */
function answeredEverything(connection: { readyForQuery?: unknown; __knexUid?: unknown }): boolean {
  if (typeof connection.__knexUid === "string" && unanswered.delete(connection.__knexUid)) return false;
  return connection.readyForQuery === true;
}
