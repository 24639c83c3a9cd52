import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedTelebirr } from "../../src/banks/telebirr/imitation.js";
import { QuotaUsageSchema, SavedAccountSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { ALL_SIMULATED_BANKS } from "../../src/simulator/imitations.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimulatedBank } from "../../src/simulator/types.js";
import { createTenant, type Tenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";

// Two real service processes (as `npm start` runs them) on one database: what one process serialises in
// memory must hold across processes through the database alone (quota statement, unique index, locks).

const SEEDED = "DFH51OFIED";
/** Telebirr-shaped references the simulator below confirms on the fly, so 500 distinct receipts exist. */
const generatedReference = (i: number) => `Q${String(i).padStart(9, "0")}`;

/** The telebirr simulator, also confirming every generated reference (a copy of its first receipt). */
const generatedTelebirr: SimulatedBank = {
  ...simulatedTelebirr,
  async handle(request) {
    const match = /^\/receipt\/(Q\d{9})$/.exec(request.path);
    const reference = match?.[1];
    if (!reference) return simulatedTelebirr.handle(request);
    const seeded = await simulatedTelebirr.handle({ ...request, path: `/receipt/${SEEDED}` });
    return { ...seeded, body: String(seeded.body).replaceAll(SEEDED, reference) };
  },
};

let db: TestDatabase;
let sim: Simulator;
let services: RunningServiceProcess[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  sim = await startSimulator({ ...ALL_SIMULATED_BANKS, telebirr: generatedTelebirr });
  // Started one after the other: both run the migrations at start, the second finds nothing to do.
  for (let i = 0; i < 2; i++) {
    services.push(
      await startService({
        databaseUrl: db.url,
        bankOverrides: sim.overrides,
        // The per-key rate limit is off: retried 503s would otherwise reach it.
        env: { DB_POOL_MAX: "10", API_RATE_LIMIT: "0" },
      }),
    );
  }
}, 60_000);
afterAll(async () => {
  const codes = await Promise.all(services.map((service) => service.stop()));
  services = [];
  await sim?.close();
  await db?.drop();
  expect(codes).toEqual([0, 0]);
});

/** Request i goes to process i mod 2. */
const serviceFor = (i: number): RunningServiceProcess => {
  const service = services[i % services.length];
  if (!service) throw new Error("services not started");
  return service;
};

/**
 * A verification as a careful client sends it: a 503 (the database's pool busy under this load) is asked
 * again, as its Retry-After invites, until the answer is final. How many 503s come depends on the machine;
 * what the service decided for each receipt must not.
 */
async function verifyUntilFinal(i: number, key: string, reference: string) {
  for (let attempt = 1; ; attempt++) {
    const response = await serviceFor(i).request("POST", "/verify", {
      key,
      json: { bank: "telebirr", transaction_number: reference },
    });
    if (response.status !== 503 || attempt === 50) return response;
    // A client's pause between retries, as Retry-After asks: the answers are what is tested.
    await new Promise((resume) => setTimeout(resume, 200));
  }
}

async function usage(tenant: Tenant): Promise<number> {
  const row = await db.orm.em
    .fork()
    .findOne(QuotaUsageSchema, { business: tenant.businessId, month: quotaMonth(new Date()) });
  return row?.count ?? 0;
}

describe("two service processes on one database", () => {
  it("never overruns a quota of 100 under 500 concurrent distinct verifications", async () => {
    const tenant = await createTenant(db, { quota: 100 });
    const references = Array.from({ length: 500 }, (_, i) => generatedReference(i));
    const responses = await Promise.all(
      references.map((reference, i) => verifyUntilFinal(i, tenant.key, reference)),
    );

    const confirmed = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 402);
    expect(confirmed).toHaveLength(100);
    // Every receipt got a final answer: confirmed or refused, nothing else.
    expect(
      responses.filter((r) => r.status !== 200 && r.status !== 402).map((r) => [r.status, r.body]),
    ).toEqual([]);
    expect(refused).toHaveLength(400);
    for (const response of confirmed) expect(response.body).toMatchObject({ success: true, exists: true });
    for (const response of refused) {
      expect(response.body).toEqual({
        message: "Monthly verification limit reached. Please upgrade your plan.",
      });
    }
    // The quota held across the processes, not inside each: each served 250 of the requests, and a quota
    // kept per process would have let each confirm 100. (How the 100 split between them is timing: one
    // process warmed up first may take them all, and the other's refusals then prove the same.)

    expect(await usage(tenant)).toBe(100);
    // Failures consume nothing and leave no record: exactly the 100 confirmed receipts are stored.
    const rows = await db.orm.em.fork().find(VerificationSchema, { branch: tenant.branchId });
    expect(rows).toHaveLength(100);
    expect(rows.every((row) => row.success)).toBe(true);
    const answered = new Set(confirmed.map((r) => r.body.data.transaction_number));
    expect(new Set(rows.map((row) => row.transactionNumber))).toEqual(answered);
  });

  it("confirms one of 100 concurrent identical verifications; the 99 others are duplicates of it", async () => {
    const tenant = await createTenant(db, { quota: 1000 });
    const reference = generatedReference(999_999);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => verifyUntilFinal(i, tenant.key, reference)),
    );

    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    const original = responses.filter((r) => r.body.duplicate === false);
    const duplicates = responses.filter((r) => r.body.duplicate === true);
    expect(original).toHaveLength(1);
    expect(original[0]?.body).toMatchObject({ success: true, exists: true });
    expect(duplicates).toHaveLength(99);
    const verificationId = Number(original[0]?.body.data.verification_id);
    for (const response of duplicates) {
      expect(response.body).toMatchObject({
        success: false,
        exists: true,
        duplicate: true,
        message: "This transaction was already verified.",
        existing_verification_id: verificationId,
      });
    }

    const em = db.orm.em.fork();
    expect(await em.count(VerificationSchema, { branch: tenant.branchId, success: true })).toBe(1);
    // Every attempt is in history: the confirmation and 99 visible reuse attempts.
    expect(await em.count(VerificationSchema, { branch: tenant.branchId })).toBe(100);
    expect(await usage(tenant)).toBe(1);
  });

  it("keeps the primary account primary when it is made primary again", async () => {
    // The simplest case of the races below: the row is read (primary) before the others are cleared.
    const tenant = await createTenant(db);
    const created = await serviceFor(0).request("POST", "/accounts", {
      key: tenant.key,
      json: { bank: "dashen", account_number: "5000123", label: "Till", is_primary: true },
    });
    const patched = await serviceFor(1).request("PATCH", `/accounts/${created.body.account.id}`, {
      key: tenant.key,
      json: { is_primary: true },
    });
    expect(patched.status).toBe(200);
    const listed = await serviceFor(0).request("GET", "/accounts", { key: tenant.key });
    expect(listed.body.accounts).toMatchObject([{ id: created.body.account.id, is_primary: true }]);
  });

  it("keeps exactly one primary account per bank under concurrent primary changes", async () => {
    const tenant = await createTenant(db);
    const banks = ["boa", "cbe"] as const;
    const ids: Record<(typeof banks)[number], number[]> = { boa: [], cbe: [] };
    for (const bank of banks) {
      for (let i = 0; i < 4; i++) {
        const created = await serviceFor(i).request("POST", "/accounts", {
          key: tenant.key,
          json: { bank, account_number: `1000${i}2345678`, label: `${bank} till ${i}`, is_primary: i === 0 },
        });
        expect(created.status).toBe(201);
        ids[bank].push(created.body.account.id);
      }
    }

    for (let round = 0; round < 3; round++) {
      // 40 changes at once per round: PATCHes naming any account (the current primary too) and new primaries.
      const requests = Array.from({ length: 40 }, (_, i) => {
        const bank = banks[i % 2] ?? "boa";
        const service = serviceFor(i >> 1);
        if (i % 5 === 4) {
          return service.request("POST", "/accounts", {
            key: tenant.key,
            json: {
              bank,
              account_number: `2000${round}${i}45678`,
              label: `new ${round}.${i}`,
              is_primary: true,
            },
          });
        }
        const id = ids[bank][(i + round) % ids[bank].length];
        return service.request("PATCH", `/accounts/${id}`, { key: tenant.key, json: { is_primary: true } });
      });
      const statuses = (await Promise.all(requests)).map((r) => r.status);
      expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);

      const listed = await serviceFor(round).request("GET", "/accounts", { key: tenant.key });
      expect(listed.status).toBe(200);
      for (const bank of banks) {
        const primaries = (listed.body.accounts as { bank: string; is_primary: boolean }[]).filter(
          (account) => account.bank === bank && account.is_primary,
        );
        expect(primaries).toHaveLength(1);
      }
      const stored = await db.orm.em
        .fork()
        .count(SavedAccountSchema, { branch: tenant.branchId, isPrimary: true });
      expect(stored).toBe(banks.length);
    }
  });
});
