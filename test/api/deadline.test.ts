import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bankName } from "../../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { type Banks, firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";
import { WAIT_MS, waitFor, within } from "../support/wait.js";

// One deadline per verification, whatever the bank does (docs/api.md §8). Timings are scaled down: a 4 s
// deadline, two retries, the default 800 ms backoff; telebirr's own attempt timeout is longer than any test,
// so only the deadline can end a telebirr lookup. How close to the deadline the answer comes is a timing
// figure (docs/performance.md); here: that the deadline ends the lookup, with the contract's answer, nothing
// recorded, and the bank's request given up.
const DEADLINE_MS = 4_000;
const BANK: BankCode = "telebirr";

/** The API of the describe block running: `tight` for the deadline's own tests, `roomy` for the others. */
let api: TestApi;
let tight: TestApi;
/**
 * A deadline far beyond the backoffs (0.8 + 1.6 s) and what setting a test up takes: where the deadline is
 * not what is tested, a loaded machine must not meet it.
 */
let roomy: TestApi;
let banks: Banks;
let sim: Simulator;
beforeAll(async () => {
  banks = await startBanks({
    retries: Object.fromEntries(BANK_CODES.map((code) => [code, 2])),
  });
  sim = banks.sim;
  const env = { BANK_TELEBIRR_TIMEOUT_MS: "120000", BANK_MPESA_TIMEOUT_MS: "2500" };
  [tight, roomy] = await Promise.all([
    startTestApi({ banks: banks.banks, deadlineMs: DEADLINE_MS, env }),
    startTestApi({ banks: banks.banks, deadlineMs: 60_000, env }),
  ]);
});
afterAll(async () => {
  await tight?.close();
  await roomy?.close();
  await sim?.close();
});
afterEach(() => {
  for (const code of BANK_CODES) sim.setMode(code, { kind: "normal" });
  sim.resetCounts();
});

const body = referenceBody(BANK, firstExample(BANK));
const NOT_RESPONDING = { message: `${bankName(BANK)} is not responding. Please try again later.` };

/** A verification of the telebirr example; one that no deadline ends fails with a message, not a timeout. */
function verify(tenant: Tenant, signal?: AbortSignal) {
  return within(
    api.request("POST", "/verify", { key: tenant.key, json: body, ...(signal ? { signal } : {}) }),
    "an answer to POST /verify",
    WAIT_MS,
  );
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
  const retry = await verify(tenant);
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ success: true, duplicate: false });
  expect(await recorded(tenant)).toEqual({ rows: 1, quota: 1 });
}

describe("one deadline per verification", () => {
  beforeAll(() => {
    api = tight;
  });

  it.each([
    ["hangs", { kind: "hang" as const }],
    ["answers long after the deadline", { kind: "slow" as const, delayMs: 600_000 }],
    ["trickles its answer a byte every 50 ms", { kind: "trickle" as const, intervalMs: 50 }],
  ])(
    "a bank that %s: the contract's 503 at the deadline, the bank's request given up, nothing recorded",
    async (_, mode) => {
      const tenant = await createTenant(api.db);
      sim.setMode(BANK, mode);
      const response = await verify(tenant);
      expect(response.status).toBe(503);
      expect(response.body).toEqual(NOT_RESPONDING);
      // Only the deadline could end it (the attempt's own timeout is two minutes): the bank's request is dropped.
      expect(sim.requestCount(BANK)).toBe(1);
      await waitFor(() => sim.abandonedCount(BANK) === 1, "the bank's request to be given up");
      await expectFreshConfirmationAfter(tenant);
    },
  );

  it("a bank that keeps failing with 502: the contract's 503 after the retries, nothing recorded", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, { kind: "error", status: 502 });
    const response = await verify(tenant);
    expect(response.status).toBe(503);
    expect(response.body).toEqual(NOT_RESPONDING);
    // However the retries fell against the deadline: never more than the first and two more.
    expect(sim.requestCount(BANK)).toBeGreaterThanOrEqual(1);
    expect(sim.requestCount(BANK)).toBeLessThanOrEqual(3);
    await expectFreshConfirmationAfter(tenant);
  });

  it("throws away an answer that arrives after the deadline, and the next request asks the bank again", async () => {
    const tenant = await createTenant(api.db);
    // The bank answers once the deadline has passed: it holds the answer until the caller has had its 503.
    const held = banks.hold(BANK);
    expect((await verify(tenant)).status).toBe(503);
    held.release();
    // The request was given up at the deadline, so no late answer can be recorded.
    await waitFor(() => sim.abandonedCount(BANK) === 1, "the bank's request to be given up");
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
    await expectFreshConfirmationAfter(tenant);
    expect(sim.requestCount(BANK)).toBe(2);
  });

  it("confirms an answer that comes on the last attempt, inside the deadline", async () => {
    // The roomy deadline: whether the third attempt starts is the retry budget's decision, not a race
    // against the machine's speed.
    const tenant = await createTenant(roomy.db);
    // Two fast failures, then the answer (the third attempt starts after backoffs of 0.8 and 1.6 s).
    sim.setMode(BANK, {
      kind: "sequence",
      steps: [{ kind: "error", status: 503 }, { kind: "error", status: 503 }, { kind: "normal" }],
    });
    const response = await roomy.request("POST", "/verify", { key: tenant.key, json: body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, duplicate: false });
    expect(sim.requestCount(BANK)).toBe(3);
  });

  it("starts no retry that the bank's observed answer times say cannot finish in time", async () => {
    // M-Pesa's attempts time out after 2.5 s here; it has just taken 1.5 s to answer (a second inside the
    // attempt's limit, so a loaded machine still gets that answer).
    sim.setMode("mpesa", { kind: "slow", delayMs: 1_500 });
    const mpesa = referenceBody("mpesa", firstExample("mpesa"));
    const warm = await api.request("POST", "/verify", { key: (await createTenant(api.db)).key, json: mpesa });
    expect(warm.status).toBe(200);
    sim.setMode("mpesa", { kind: "hang" });
    sim.resetCounts();
    const tenant = await createTenant(api.db);
    const response = await api.request("POST", "/verify", { key: tenant.key, json: mpesa });
    // After the first attempt's 2.5 s and a 0.8 s backoff, a 1.5 s answer would end past the 4 s deadline
    // (a loaded machine only leaves less time): no second attempt.
    expect(response.status).toBe(503);
    expect(sim.requestCount("mpesa")).toBe(1);
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
  });
});

describe("callers who leave, and callers who wait together", () => {
  // The shared lookup runs within its first caller's deadline: the steps below must not race it.
  beforeAll(() => {
    api = roomy;
  });

  it("a client that disconnects aborts its bank lookup, and nothing is recorded", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, { kind: "hang" });
    const controller = new AbortController();
    const pending = verify(tenant, controller.signal).catch((error: unknown) => error);
    await waitFor(() => sim.requestCount(BANK) === 1, "the lookup to reach the bank");
    controller.abort();
    await pending;
    await waitFor(() => sim.abandonedCount(BANK) === 1, "the bank's request to be given up");
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
    await expectFreshConfirmationAfter(tenant);
  });

  it("a lookup another caller still waits on goes on when the first caller leaves", async () => {
    const [leaving, staying] = [await createTenant(api.db), await createTenant(api.db)];
    // The bank keeps its answer until both callers are in and the first has left.
    const held = banks.hold(BANK);
    const controller = new AbortController();
    const left = verify(leaving, controller.signal).catch((error: unknown) => error);
    await waitFor(() => sim.requestCount(BANK) === 1, "the first caller's lookup to reach the bank");
    let stays: ReturnType<typeof verify> | undefined;
    await pastPrecheck(() => {
      stays = verify(staying);
    });
    const gone = api.clientsGone();
    controller.abort();
    await left;
    await waitFor(() => api.clientsGone() > gone, "the service to see the first caller leave");
    held.release();
    const answer = await (stays as ReturnType<typeof verify>);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true });
    expect(sim.requestCount(BANK)).toBe(1);
    expect(sim.abandonedCount(BANK)).toBe(0);
    expect(await recorded(leaving)).toEqual({ rows: 0, quota: 0 });
  });

  it("identical requests while the bank fails share one lookup and its failure", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode(BANK, { kind: "error", status: 503 });
    const answers = await Promise.all([verify(tenant), verify(tenant)]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(NOT_RESPONDING);
    }
    // One lookup: its first attempt and two retries, not a second lookup of three more.
    expect(sim.requestCount(BANK)).toBe(3);
    expect(await recorded(tenant)).toEqual({ rows: 0, quota: 0 });
  });
});

/**
 * Starts a verification while the verifications table is locked, and resolves once its pre-check (the
 * last statement before the bank lookup, src/engine/records.ts) has waited for the lock and then been
 * answered: by then the request has joined the lookup in flight or started its own. No event of the
 * service says so; PostgreSQL's view of the pre-check does.
 */
async function pastPrecheck(start: () => void): Promise<void> {
  const blocker = new pg.Client({ connectionString: api.db.url });
  await blocker.connect();
  try {
    await blocker.query("begin");
    await blocker.query("lock table verifications in access exclusive mode");
    start();
    const pid = await waitFor(async () => {
      const { rows } = await blocker.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      return rows[0]?.pid;
    }, "the pre-check to wait for the lock");
    await blocker.query("commit");
    await waitFor(async () => {
      const { rows } = await blocker.query<{ state: string }>(
        "select state from pg_stat_activity where pid = $1",
        [pid],
      );
      return rows[0]?.state === "idle";
    }, "the pre-check to be answered");
  } finally {
    await blocker.end();
  }
}
