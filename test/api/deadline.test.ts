import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bankName } from "../../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";

// Issue 17: one deadline per verification, whatever the bank does. Timings are scaled down: a 4 s deadline,
// telebirr's own 15 s attempt timeout (so only the deadline stops it), two retries, banks.md's 800 ms backoff.
const DEADLINE_MS = 4_000;
// The bound: no request waits longer than the deadline plus one second.
const MARGIN_MS = 1_000;
const BANK: BankCode = "telebirr";

let api: TestApi;
let sim: Simulator;
beforeAll(async () => {
  const started = await startBanks({
    retries: Object.fromEntries(BANK_CODES.map((code) => [code, 2])),
  });
  sim = started.sim;
  api = await startTestApi({
    banks: started.banks,
    deadlineMs: DEADLINE_MS,
    env: { BANK_TELEBIRR_TIMEOUT_MS: "15000", BANK_MPESA_TIMEOUT_MS: "2000" },
  });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});
afterEach(() => {
  for (const code of BANK_CODES) sim.setMode(code, { kind: "normal" });
  sim.resetCounts();
});

const body = referenceBody(BANK, firstExample(BANK));
const NOT_RESPONDING = { message: `${bankName(BANK)} is not responding. Please try again later.` };

async function timedVerify(tenant: Tenant, signal?: AbortSignal) {
  const started = performance.now();
  const response = await api.request("POST", "/verify", {
    key: tenant.key,
    json: body,
    ...(signal ? { signal } : {}),
  });
  return { ...response, ms: performance.now() - started };
}

async function recorded(tenant: Tenant): Promise<{ rows: number; quota: number }> {
  const em = api.db.orm.em.fork();
  const rows = await em.count(VerificationSchema, { branch: tenant.branchId });
  const usage = await em.findOne(QuotaUsageSchema, {
    business: tenant.businessId,
    month: quotaMonth(new Date()),
  });
  return { rows, quota: usage?.count ?? 0 };
}

/** After the failure: nothing recorded, nothing spent, and the next attempt asks the bank and confirms. */
async function expectFreshConfirmationAfter(tenant: Tenant): Promise<void> {
  expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
  sim.setMode(BANK, { kind: "normal" });
  const retry = await timedVerify(tenant);
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ success: true, duplicate: false });
  expect(await recorded(tenant)).toEqual({ rows: 1, quota: 1 });
}

describe("one deadline per verification", () => {
  it.each([
    ["hangs", { kind: "hang" as const }],
    ["answers after the deadline", { kind: "slow" as const, delayMs: DEADLINE_MS + 1_500 }],
    ["trickles its answer a byte every 50 ms", { kind: "trickle" as const, intervalMs: 50 }],
    ["keeps failing with 502", { kind: "error" as const, status: 502 }],
  ])("a bank that %s: the contract's 503 by the deadline, nothing recorded", async (_, mode) => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, mode);
    const response = await timedVerify(tenant);
    expect(response.status).toBe(503);
    expect(response.body).toEqual(NOT_RESPONDING);
    expect(response.ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    await expectFreshConfirmationAfter(tenant);
  });

  it("throws away an answer that arrives after the deadline, and the next request asks the bank again", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, { kind: "slow", delayMs: DEADLINE_MS + 300 });
    expect((await timedVerify(tenant)).status).toBe(503);
    // Let the late answer come and go: it must not be recorded.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
    await expectFreshConfirmationAfter(tenant);
    expect(sim.requestCount(BANK)).toBe(2);
  });

  it("confirms an answer that comes just before the deadline on the last attempt", async () => {
    const tenant = await createTenant(api.db);
    // Two fast failures, then an answer well inside what is left of the deadline.
    sim.setMode(BANK, {
      kind: "sequence",
      steps: [
        { kind: "error", status: 503 },
        { kind: "error", status: 503 },
        // The third attempt starts 2.4–2.9 s in (backoffs of 0.8 and 1.6 s, jittered) and answers by ~3.6 s.
        { kind: "slow", delayMs: 700 },
      ],
    });
    const response = await timedVerify(tenant);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, duplicate: false });
    expect(response.ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    expect(sim.requestCount(BANK)).toBe(3);
    expect(await recorded(tenant)).toEqual({ rows: 1, quota: 1 });
  });

  it("starts no retry that the bank's observed answer times say cannot finish in time", async () => {
    // M-Pesa's attempts time out after 2 s here; it has just taken 1.8 s to answer.
    sim.setMode("mpesa", { kind: "slow", delayMs: 1_800 });
    const mpesa = referenceBody("mpesa", firstExample("mpesa"));
    const warm = await api.request("POST", "/verify", { key: (await createTenant(api.db)).key, json: mpesa });
    expect(warm.status).toBe(200);
    sim.setMode("mpesa", { kind: "hang" });
    sim.resetCounts();
    const tenant = await createTenant(api.db);
    const started = performance.now();
    const response = await api.request("POST", "/verify", { key: tenant.key, json: mpesa });
    // After the first attempt's 2 s and a 0.8 s backoff, a 1.8 s answer would end past the 4 s deadline.
    expect(response.status).toBe(503);
    expect(sim.requestCount("mpesa")).toBe(1);
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS - 1_000);
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
  });
});

describe("callers who leave, and callers who wait together", () => {
  it("a client that disconnects aborts its bank lookup, and nothing is recorded", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, { kind: "hang" });
    const controller = new AbortController();
    const pending = timedVerify(tenant, controller.signal).catch((error: unknown) => error);
    await waitUntil(() => sim.requestCount(BANK) === 1);
    controller.abort();
    await pending;
    await waitUntil(() => sim.abandonedCount(BANK) === 1);
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
    await expectFreshConfirmationAfter(tenant);
  });

  it("a lookup another caller still waits on goes on when the first caller leaves", async () => {
    const [leaving, staying] = [await createTenant(api.db), await createTenant(api.db)];
    sim.setMode(BANK, { kind: "slow", delayMs: 800 });
    const controller = new AbortController();
    const left = timedVerify(leaving, controller.signal).catch((error: unknown) => error);
    await waitUntil(() => sim.requestCount(BANK) === 1);
    const stays = timedVerify(staying);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await left;
    const answer = await stays;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true });
    expect(sim.requestCount(BANK)).toBe(1);
    expect(sim.abandonedCount(BANK)).toBe(0);
    expect(await recorded(leaving)).toEqual({ rows: 0, quota: 0 });
  });

  it("identical requests while the bank fails share one lookup and its failure", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, { kind: "error", status: 503 });
    const answers = await Promise.all([timedVerify(tenant), timedVerify(tenant)]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(NOT_RESPONDING);
      expect(answer.ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    }
    // One lookup: its first attempt and two retries, not a second lookup of three more.
    expect(sim.requestCount(BANK)).toBe(3);
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
