import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tryTakeLease } from "../../src/db/lease.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { waitFor } from "../support/wait.js";

// The pooler-safe lock behind a transaction-mode pooler (src/db/lease.ts): one holder at a time, kept
// while renewed, free again when released or when its holder stops renewing.

// Renewed every third of it: a loaded machine would have to stall the test process that long to lose it.
const TTL_MS = 2_000;
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

const expiresAt = async (name: string) => {
  const rows = await db.orm.em
    .fork()
    .getConnection()
    .execute<{ ms: number }[]>(
      "select (extract(epoch from expires_at) * 1000)::float8 as ms from leases where name = ?",
      [name],
    );
  return rows[0]?.ms;
};

describe("a lease", () => {
  it("has one holder; it is kept while renewed, and free again once released", async () => {
    const first = await tryTakeLease(db.url, "one holder", TTL_MS);
    expect(first).not.toBeNull();
    expect(await tryTakeLease(db.url, "one holder", TTL_MS)).toBeNull();
    // Renewed past several of its lifetimes: still held, and its expiry moved on.
    const taken = await expiresAt("one holder");
    await new Promise((resolve) => setTimeout(resolve, TTL_MS * 1.5));
    expect(await expiresAt("one holder")).toBeGreaterThan(taken ?? Number.POSITIVE_INFINITY);
    expect(await tryTakeLease(db.url, "one holder", TTL_MS)).toBeNull();
    await first?.release();
    const second = await tryTakeLease(db.url, "one holder", TTL_MS);
    expect(second).not.toBeNull();
    await second?.release();
  });

  it("goes to another taker when its holder stops renewing, and the old holder learns it lost it", async () => {
    const stalled = await tryTakeLease(db.url, "stalled holder", TTL_MS);
    expect(stalled).not.toBeNull();
    // The holder's process stalls: its lease is made to have expired, as if no renewal had come in time.
    await db.orm.em
      .fork()
      .getConnection()
      .execute("update leases set expires_at = now() - interval '1 second' where name = ?", [
        "stalled holder",
      ]);
    const next = await waitFor(() => tryTakeLease(db.url, "stalled holder", TTL_MS), "the lease taken over");
    let lost = false;
    void stalled?.lost.then(() => {
      lost = true;
    });
    await waitFor(() => lost, "the old holder told it lost the lease");
    await stalled?.release();
    // The old holder's release does not free the new holder's lease.
    expect(await tryTakeLease(db.url, "stalled holder", TTL_MS)).toBeNull();
    await next.release();
  });
});
