import type pg from "pg";

/** What the lease needs of knex's client: its pool's connections, and who asks the pool for one. */
export interface PooledConnections {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  pool?: TarnPool | null | undefined;
}

/** knex's pool (tarn): it tells, before it lends a connection, that one is asked for. */
interface TarnPool {
  numPendingAcquires(): number;
  on(event: "acquireRequest", listener: () => void): void;
}

/** Idle connections held for the next statement, at most (of the pool's DB_POOL_MAX, 10 by default). */
const HELD_AT_MOST = 4;
/** A held connection unused this long goes back to the pool (which then also waits no longer to close). */
const HELD_IDLE_MS = 100;

/**
 * Connections the hot path's plain statements (plain-query.ts) hand on to each other instead of returning
 * each to the pool: knex and tarn's acquire (a pending operation with its timeout timer, an asynchronous
 * validation, events) and release were ~2 % of a worker's CPU and ~3.5 % of what a verification allocated
 * (issue 18). What is held goes back to the pool as soon as anyone else asks the pool for a connection,
 * when it has been held idle for HELD_IDLE_MS, and when it is unusable (closed, or owing the answer of a
 * query that timed out: the pool's validation then destroys it), so the pool's limits, its other users and
 * its shutdown see what they saw.
 */
export interface ConnectionLease {
  acquire(): Promise<pg.Client>;
  release(connection: pg.Client): void;
}

const LEASES = new WeakMap<PooledConnections, ConnectionLease>();

/** The lease in front of `pool` (one per pool). */
export function leaseOf(pool: PooledConnections): ConnectionLease {
  let lease = LEASES.get(pool);
  if (!lease) {
    lease = createLease(pool);
    LEASES.set(pool, lease);
  }
  return lease;
}

function createLease(pool: PooledConnections): ConnectionLease {
  const held: pg.Client[] = [];
  let lastUse = 0;
  let checking = false;

  let heard: TarnPool | undefined;

  const giveBack = (connection: pg.Client) => void pool.releaseConnection(connection);
  const giveBackAll = () => {
    for (const connection of held.splice(0)) giveBack(connection);
  };
  const othersWait = () => (pool.pool?.numPendingAcquires() ?? 0) > 0;
  /** Hears the pool's requests (knex makes a new pool when it is set up again). */
  const hearRequests = () => {
    if (!pool.pool || pool.pool === heard) return;
    heard = pool.pool;
    // The lease asks the pool only when it holds nothing, so every request heard while holding is another's.
    heard.on("acquireRequest", giveBackAll);
  };

  function giveBackIdle(): void {
    const idleFor = Date.now() - lastUse;
    if (held.length > 0 && idleFor < HELD_IDLE_MS) {
      setTimeout(giveBackIdle, HELD_IDLE_MS - idleFor);
      return;
    }
    checking = false;
    giveBackAll();
  }

  return {
    async acquire() {
      lastUse = Date.now();
      hearRequests();
      // Those who wait in the pool come first: what is held goes to them, and this statement queues.
      if (othersWait()) giveBackAll();
      for (let connection = held.pop(); connection; connection = held.pop()) {
        if (usable(connection)) return connection;
        giveBack(connection);
      }
      return (await pool.acquireConnection()) as pg.Client;
    },
    release(connection) {
      lastUse = Date.now();
      if (held.length >= HELD_AT_MOST || !usable(connection) || othersWait()) {
        giveBack(connection);
        return;
      }
      held.push(connection);
      if (!checking) {
        checking = true;
        setTimeout(giveBackIdle, HELD_IDLE_MS);
      }
    },
  };
}

/** As the pool's validation would find it (knex marks a connection that ended or failed as disposed). */
function usable(connection: pg.Client): boolean {
  const state = connection as pg.Client & { readyForQuery?: boolean; __knex__disposed?: unknown };
  return state.readyForQuery === true && !state.__knex__disposed;
}
