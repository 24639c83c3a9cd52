import { UniqueConstraintViolationException } from "@mikro-orm/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBranch, createBusiness } from "../../src/admin/businesses.js";
import { type Orm, openOrm } from "../../src/db/orm.js";
import { insertVerification, type NewVerification, precheck } from "../../src/engine/records.js";
import type { VerifyCaller } from "../../src/engine/types.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { newVerification } from "../support/factories.js";

// The verification's two statements run prepared on pooled connections (src/db/plain-query.ts). With a pool
// of one connection every statement below runs on the connection that prepared it.
let db: TestDatabase;
let orm: Orm;
let caller: VerifyCaller;
beforeAll(async () => {
  db = await createTestDatabase();
  orm = await openOrm({ clientUrl: db.url, poolMax: 1 });
  const em = orm.em.fork();
  const business = await createBusiness(em, "Prepared statements", 100);
  const branch = await createBranch(em, business.id, "Main");
  caller = {
    branchId: branch.id,
    businessId: business.id,
    sandbox: false,
    source: { type: "api", label: "till 1" },
  };
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const confirmed = () => newVerification(caller.branchId);

const quota = { businessId: 0, month: "2026-11" };
const write = (record: NewVerification) =>
  insertVerification(orm.em.fork(), record, { ...quota, businessId: caller.businessId });

describe("the verification's prepared statements", () => {
  it("write and find a record, the quota counted", async () => {
    const record = await write(confirmed());
    expect(record?.transactionNumber).toMatch(/^DFR/);
    expect(record?.amount).toBe(1100);
    const found = await precheck(
      orm.em.fork(),
      caller,
      "telebirr",
      record?.transactionNumber ?? "",
      null,
      "2026-11",
    );
    expect(found).toEqual({
      existingId: record?.id,
      existingRequestRef: null,
      exhausted: false,
      savedAccounts: [],
    });
  });

  it("keep working after a migration adds a column to the table they return from", async () => {
    await write(confirmed());
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query("alter table verifications add column later_column text");
    } finally {
      await admin.end();
    }
    const record = await write(confirmed());
    expect(record?.id).toBeGreaterThan(0);
  });

  it("report a receipt confirmed twice as MikroORM's unique violation, as the ORM did", async () => {
    const record = confirmed();
    await write(record);
    await expect(write({ ...record, createdAt: new Date() })).rejects.toBeInstanceOf(
      UniqueConstraintViolationException,
    );
  });

  it("run on the transaction's own connection inside a transaction", async () => {
    const record = confirmed();
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await insertVerification(tx, record, null);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const found = await precheck(
      orm.em.fork(),
      caller,
      "telebirr",
      record.transactionNumber,
      null,
      "2026-11",
    );
    expect(found.existingId).toBeNull();
  });
});
