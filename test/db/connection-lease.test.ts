import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { leaseOf, type PooledConnections } from "../../src/db/connection-lease.js";
import { type Orm, openOrm } from "../../src/db/orm.js";
import { plainQuery } from "../../src/db/plain-query.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

// The hot path's statements hand pooled connections on to each other (src/db/connection-lease.ts); the
// pool's other users, its validation and its shutdown must see what they saw without the lease.
let db: TestDatabase;
let orm: Orm;
beforeAll(async () => {
  db = await createTestDatabase();
  orm = await openOrm({ clientUrl: db.url, poolMax: 2 });
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const pool = () =>
  orm.em.getConnection().getKnex().client as PooledConnections & {
    pool: { numUsed(): number; numPendingAcquires(): number };
  };
const backend = async () =>
  (await plainQuery<{ pid: number }>(orm.em.fork(), "select pg_backend_pid() as pid", []))[0]?.pid;

describe("the connection lease", () => {
  it("hands a released connection to the next statement, and gives it back to the pool once idle", async () => {
    const first = await backend();
    expect(await backend()).toBe(first);
    expect(pool().pool.numUsed()).toBe(1);
    await sleep(300);
    expect(pool().pool.numUsed()).toBe(0);
  });

  it("lets the pool's other users have what it holds: none of them waits for the lease", async () => {
    await backend();
    // The pool has two connections: one held by the lease, one taken here by a transaction that stays open.
    const blocker = orm.em.fork();
    await blocker.begin();
    await blocker.getConnection().execute("select 1", [], "all", blocker.getTransactionContext());
    const done: string[] = [];
    const waiting = orm.em
      .fork()
      .getConnection()
      .execute<{ n: number }[]>("select 2 as n")
      .finally(() => done.push("the pool's waiter"));
    while (pool().pool.numPendingAcquires() === 0) await sleep(1);
    // A statement on the lease while the ORM waits gives the held connection to the pool's waiter first.
    const [rows, pid] = await Promise.all([waiting, backend().finally(() => done.push("the lease"))]);
    expect(rows).toEqual([{ n: 2 }]);
    expect(pid).toEqual(expect.any(Number));
    expect(done).toEqual(["the pool's waiter", "the lease"]);
    await blocker.rollback();
  });

  it("gives what it holds to anyone who asks the pool, without waiting for the connection to idle", async () => {
    const single = await openOrm({ clientUrl: db.url, poolMax: 1 });
    // The other tests' lease first gives back what it holds: its idle timer, firing while timers are faked,
    // would set its next one on the fake clock, which never runs after, and the lease would hold its
    // connections for good (the suite's orm.close then waited for them: a CI run timed out there).
    while (pool().pool.numUsed() > 0) await sleep(10);
    // The lease's idle timer does not run on its own here: only hearing the request can free the pool's one
    // connection before the check below gives up (node:timers/promises keeps real time).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await plainQuery(single.em.fork(), "select 1", []);
      const query = single.em.fork().getConnection().execute<{ n: number }[]>("select 3 as n");
      await expect(Promise.race([query, sleep(2_000).then(() => "still waiting")])).resolves.toEqual([
        { n: 3 },
      ]);
    } finally {
      vi.runOnlyPendingTimers();
      vi.useRealTimers();
      await single.close(true);
    }
  });

  it("never reuses a connection that ended: it goes back to the pool, which replaces it", async () => {
    const lease = leaseOf(pool());
    const connection = await lease.acquire();
    const { rows } = await connection.query<{ pid: number }>("select pg_backend_pid() as pid");
    lease.release(connection);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // Not events.once: the connection emits "error" (the server's FATAL) before "end".
    const ended = new Promise((resolve) => connection.once("end", resolve));
    await admin.query("select pg_terminate_backend($1)", [rows[0]?.pid]);
    await admin.end();
    await ended;
    const next = await lease.acquire();
    expect(next).not.toBe(connection);
    await expect(next.query("select 1 as one")).resolves.toMatchObject({ rows: [{ one: 1 }] });
    lease.release(next);
  });
});
