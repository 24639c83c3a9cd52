import { UniqueConstraintViolationException } from "@mikro-orm/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBranch, createBusiness } from "../../src/admin/businesses.js";
import { type Orm, openOrm } from "../../src/db/orm.js";
import { createRecordWriter } from "../../src/engine/record-writer.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { newVerification } from "../support/factories.js";

// Records that take one business's quota units while one is being written go together in one statement
// (src/engine/record-writer.ts): as exact as one at a time, fewer commits.
let db: TestDatabase;
let orm: Orm;
beforeAll(async () => {
  db = await createTestDatabase();
  orm = await openOrm({ clientUrl: db.url, poolMax: 4 });
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const MONTH = "2026-11";
let sequence = 0;

async function branchOf(quota: number): Promise<{ branchId: number; businessId: number }> {
  const em = orm.em.fork();
  const business = await createBusiness(em, `Batched ${++sequence}`, quota);
  const branch = await createBranch(em, business.id, "Main");
  return { branchId: branch.id, businessId: business.id };
}

const confirmed = (branchId: number) => newVerification(branchId, { amount: 250 });

async function written(branchId: number) {
  return orm.em
    .fork()
    .getConnection()
    .execute<{ transactions: string; rows: string }[]>(
      "select count(distinct xmin::text) as transactions, count(*) as rows from verifications where branch_id = ?",
      [branchId],
    );
}

async function unitsTaken(businessId: number): Promise<number> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ count: number }[]>("select count from quota_usage where business_id = ? and month = ?", [
      businessId,
      MONTH,
    ]);
  return rows[0]?.count ?? 0;
}

describe("the record writer", () => {
  it("writes one business's concurrent records in fewer transactions, each taking its unit", async () => {
    const { branchId, businessId } = await branchOf(1000);
    const writer = createRecordWriter(orm.em.fork());
    const sent = Array.from({ length: 60 }, () => confirmed(branchId));
    const records = await Promise.all(
      sent.map((record) => writer.insert(record, { businessId, month: MONTH })),
    );
    // Each caller gets its own record back.
    expect(records.map((record) => record?.transactionNumber)).toEqual(
      sent.map((record) => record.transactionNumber),
    );
    expect(records.every((record) => record !== null && record.branchId === branchId)).toBe(true);
    expect(new Set(records.map((record) => record?.id)).size).toBe(60);
    const [counts] = await written(branchId);
    expect(Number(counts?.rows)).toBe(60);
    expect(Number(counts?.transactions)).toBeLessThan(60);
    expect(await unitsTaken(businessId)).toBe(60);
  });

  it("never takes more units than the quota, however the records are batched", async () => {
    const { branchId, businessId } = await branchOf(25);
    const writer = createRecordWriter(orm.em.fork());
    const records = await Promise.all(
      Array.from({ length: 70 }, () => writer.insert(confirmed(branchId), { businessId, month: MONTH })),
    );
    expect(records.filter((record) => record !== null)).toHaveLength(25);
    expect(Number((await written(branchId))[0]?.rows)).toBe(25);
    expect(await unitsTaken(businessId)).toBe(25);
  });

  it("writes the others of a batch when one hits the unique index, and only that one fails", async () => {
    const { branchId, businessId } = await branchOf(1000);
    const writer = createRecordWriter(orm.em.fork());
    const quota = { businessId, month: MONTH };
    // The first goes alone; the rest wait for it and go together, the twin of a confirmed receipt among them.
    const first = writer.insert(confirmed(branchId), quota);
    const twin = confirmed(branchId);
    const rest = [
      ...Array.from({ length: 5 }, () => writer.insert(confirmed(branchId), quota)),
      writer.insert(twin, quota),
      writer.insert({ ...twin, createdAt: new Date() }, quota),
      ...Array.from({ length: 5 }, () => writer.insert(confirmed(branchId), quota)),
    ];
    const outcomes = await Promise.allSettled([first, ...rest]);
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueConstraintViolationException);
    expect(Number((await written(branchId))[0]?.rows)).toBe(12);
    expect(await unitsTaken(businessId)).toBe(12);
  });

  it("writes records that take no quota (sandbox) as they come", async () => {
    const { branchId } = await branchOf(0);
    const writer = createRecordWriter(orm.em.fork());
    const records = await Promise.all(
      Array.from({ length: 5 }, () => writer.insert({ ...confirmed(branchId), sandbox: true }, null)),
    );
    expect(records.every((record) => record?.sandbox === true)).toBe(true);
  });
});
