import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VerificationSchema } from "../../src/db/entities/index.js";
import { createKey, createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { insertVerification } from "../support/factories.js";

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db);
  other = await createTenant(api.db, { name: "Other business" });
});
afterAll(() => api.close());

const list = (key: string, query = "") => api.request("GET", `/verifications${query}`, { key });
const invalid = (errors: Record<string, string[]>) => ({ message: "The given data was invalid.", errors });

describe("GET /verifications", () => {
  it("lists the branch's verifications newest first, in the record shape", async () => {
    const { branchId } = await createTenant(api.db);
    const key = await createKey(api.db, branchId, "cashier");
    const older = await insertVerification(api.db, branchId, { createdAt: daysAgo(2) });
    const newer = await insertVerification(api.db, branchId, { createdAt: daysAgo(1), amount: 20475.5 });
    const response = await list(key);
    expect(response.status).toBe(200);
    expect(response.body.verifications.map((v: { id: number }) => v.id)).toEqual([newer.id, older.id]);
    expect(response.body.verifications[0]).toEqual({
      id: newer.id,
      bank: "telebirr",
      bank_name: "Telebirr",
      transaction_number: newer.transactionNumber,
      account_number: null,
      success: true,
      exists: true,
      status: "completed",
      transaction_type: "Send Money to Registered Customer",
      amount: 20475.5,
      currency: "ETB",
      payer_name: "Abebe Kebede",
      transaction_date: "2026-11-20T10:15:00+03:00",
      created_at: newer.createdAt.toISOString(),
      source: { type: "api", label: "test key" },
    });
  });

  it("applies limit, period and success filters", async () => {
    const { branchId } = await createTenant(api.db);
    const key = await createKey(api.db, branchId, "cashier");
    const recentOk = await insertVerification(api.db, branchId, { createdAt: daysAgo(3) });
    const recentFailed = await insertVerification(api.db, branchId, {
      createdAt: daysAgo(5),
      success: false,
      exists: false,
    });
    const monthOld = await insertVerification(api.db, branchId, { createdAt: daysAgo(20) });
    const yearOld = await insertVerification(api.db, branchId, { createdAt: daysAgo(300) });
    const ids = async (query: string) =>
      (await list(key, query)).body.verifications.map((v: { id: number }) => v.id);

    expect(await ids("")).toEqual([recentOk.id, recentFailed.id, monthOld.id, yearOld.id]);
    expect(await ids("?limit=2")).toEqual([recentOk.id, recentFailed.id]);
    expect(await ids("?period=7d")).toEqual([recentOk.id, recentFailed.id]);
    expect(await ids("?period=30d")).toEqual([recentOk.id, recentFailed.id, monthOld.id]);
    expect(await ids("?period=12m")).toEqual([recentOk.id, recentFailed.id, monthOld.id, yearOld.id]);
    expect(await ids("?success=true")).toEqual([recentOk.id, monthOld.id, yearOld.id]);
    expect(await ids("?success=false")).toEqual([recentFailed.id]);
    expect(await ids("?success=1&period=15d&limit=500")).toEqual([recentOk.id]);
  });

  it("returns at most 100 records by default", async () => {
    const { branchId } = await createTenant(api.db);
    const key = await createKey(api.db, branchId, "cashier");
    const em = api.db.orm.em.fork();
    await em.execute(
      `insert into verifications (branch_id, bank, transaction_number, success, "exists", verification_method, source_type, source_label)
       select ?, 'telebirr', 'REF' || g, true, true, 'official', 'api', 'bulk' from generate_series(1, 120) g`,
      [branchId],
    );
    expect((await list(key)).body.verifications).toHaveLength(100);
  });

  it.each([
    ["?limit=501", { limit: ["The limit may not be greater than 500."] }],
    ["?limit=0", { limit: ["The limit must be at least 1."] }],
    ["?limit=ten", { limit: ["The limit must be an integer."] }],
    ["?limit=1.5", { limit: ["The limit must be an integer."] }],
    ["?period=2d", { period: ["The selected period is invalid."] }],
    ["?success=yes", { success: ["The success field must be true or false."] }],
  ])("rejects %s", async (query, errors) => {
    const response = await list(tenant.key, query);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid(errors));
  });

  it("never shows another branch's records", async () => {
    const theirs = await insertVerification(api.db, other.branchId);
    const { verifications } = (await list(tenant.key)).body;
    expect(verifications.map((v: { id: number }) => v.id)).not.toContain(theirs.id);
  });

  it("answers 401 without a key", async () => {
    expect((await list("")).status).toBe(401);
  });
});

describe("GET /verifications/{id}", () => {
  it("returns one record", async () => {
    const mine = await insertVerification(api.db, tenant.branchId);
    const response = await api.request("GET", `/verifications/${mine.id}`, { key: tenant.key });
    expect(response.status).toBe(200);
    expect(response.body.verification).toMatchObject({
      id: mine.id,
      transaction_number: mine.transactionNumber,
    });
  });

  it("answers 404 for another branch's record and unknown ids", async () => {
    const theirs = await insertVerification(api.db, other.branchId);
    for (const id of [theirs.id, 987654, "abc", "1e3", "99999999999"]) {
      const response = await api.request("GET", `/verifications/${id}`, { key: tenant.key });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: "Verification not found." });
    }
  });
});

describe("DELETE /verifications/{id}", () => {
  it("removes the record from history but keeps the receipt used", async () => {
    const mine = await insertVerification(api.db, tenant.branchId);
    const response = await api.request("DELETE", `/verifications/${mine.id}`, { key: tenant.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Verification deleted." });
    expect((await api.request("GET", `/verifications/${mine.id}`, { key: tenant.key })).status).toBe(404);
    expect((await api.request("DELETE", `/verifications/${mine.id}`, { key: tenant.key })).status).toBe(404);
    const row = await api.db.orm.em.fork().findOneOrFail(VerificationSchema, { id: mine.id });
    expect(row.deletedAt).toBeInstanceOf(Date);
    // The confirmed (branch, bank, reference) stays taken: the same receipt cannot be confirmed again.
    await expect(
      insertVerification(api.db, tenant.branchId, { transactionNumber: mine.transactionNumber }),
    ).rejects.toThrow(/unique/i);
  });

  it("cannot delete another branch's record", async () => {
    const theirs = await insertVerification(api.db, other.branchId);
    const response = await api.request("DELETE", `/verifications/${theirs.id}`, { key: tenant.key });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Verification not found." });
    const row = await api.db.orm.em.fork().findOneOrFail(VerificationSchema, { id: theirs.id });
    expect(row.deletedAt).toBeNull();
  });
});

describe("DELETE /verifications/bulk", () => {
  it("deletes the branch's records and counts only those", async () => {
    const { branchId } = await createTenant(api.db);
    const manager = await createKey(api.db, branchId, "manager");
    const a = await insertVerification(api.db, branchId);
    const b = await insertVerification(api.db, branchId);
    const theirs = await insertVerification(api.db, other.branchId);
    const response = await api.request("DELETE", "/verifications/bulk", {
      key: manager,
      json: { ids: [a.id, b.id, theirs.id, 424242, a.id] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "2 verifications deleted.", deleted: 2 });
    const row = await api.db.orm.em.fork().findOneOrFail(VerificationSchema, { id: theirs.id });
    expect(row.deletedAt).toBeNull();
  });

  it("is refused to cashiers", async () => {
    const { branchId } = await createTenant(api.db);
    const cashier = await createKey(api.db, branchId, "cashier");
    const mine = await insertVerification(api.db, branchId);
    const response = await api.request("DELETE", "/verifications/bulk", {
      key: cashier,
      json: { ids: [mine.id] },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "This action is unauthorized." });
    const row = await api.db.orm.em.fork().findOneOrFail(VerificationSchema, { id: mine.id });
    expect(row.deletedAt).toBeNull();
  });

  it.each([
    [{}, { ids: ["The ids field is required."] }],
    [{ ids: [] }, { ids: ["The ids field is required."] }],
    [{ ids: "1,2" }, { ids: ["The ids must be an array."] }],
    [
      { ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { ids: ["The ids may not have more than 100 items."] },
    ],
    [{ ids: [1, "a"] }, { "ids.1": ["The ids.1 must be an integer."] }],
    [{ ids: [1.5] }, { "ids.0": ["The ids.0 must be an integer."] }],
  ])("rejects %j", async (json, errors) => {
    const response = await api.request("DELETE", "/verifications/bulk", { key: tenant.key, json });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid(errors));
  });

  it("answers 401 without a key", async () => {
    const response = await api.request("DELETE", "/verifications/bulk", { json: { ids: [1] } });
    expect(response.status).toBe(401);
  });
});
