import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../../fakes/telegram.js";
import { MIGRATION_NAMES } from "../../migrations/names.js";
import { createBranch, createBusiness } from "../../src/admin/businesses.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { simulatedTelebirr } from "../../src/banks/telebirr/imitation.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { type Orm, openOrm } from "../../src/db/orm.js";
import { ALL_SIMULATED_BANKS } from "../../src/simulator/imitations.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimulatedBank } from "../../src/simulator/types.js";
import { createEmptyDatabase } from "../support/database.js";
import { pgbouncerMissing, startPgBouncer } from "../support/pgbouncer.js";
import { runScript } from "../support/processes.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { waitFor } from "../support/wait.js";

// Scaling out (issue 48): three built instances, each started as `npm start` starts it, on one empty
// PostgreSQL database, directly and through PgBouncer in transaction mode. What must hold whatever the
// timing: migrations applied once, the quota never overrun, one confirmation of a receipt, a revoked key
// refused everywhere, and one poller of Telegram.

const SEEDED = "DFH51OFIED";
/** Telebirr-shaped references the simulator confirms: as many distinct receipts as a case needs. */
const reference = (tag: string, i: number) => `${tag}${String(i).padStart(8, "0")}`;
const GENERATED = /^\/receipt\/([A-Z]{2}\d{8})$/;

/** References tagged HOLD wait for this before the bank answers them (a crash while a bank is asked). */
let bankHeld: Promise<void> = Promise.resolve();
let heldAsked = 0;

/** The telebirr imitation, confirming every generated reference after 20–200 ms, so requests overlap. */
const generatedTelebirr: SimulatedBank = {
  ...simulatedTelebirr,
  async handle(request) {
    const generated = GENERATED.exec(request.path)?.[1];
    if (!generated) return simulatedTelebirr.handle(request);
    if (generated.startsWith("HO")) {
      heldAsked += 1;
      await bankHeld;
    }
    await new Promise((resume) => setTimeout(resume, 20 + Math.random() * 180));
    const seeded = await simulatedTelebirr.handle({ ...request, path: `/receipt/${SEEDED}` });
    return { ...seeded, body: String(seeded.body).replaceAll(SEEDED, generated) };
  },
};

const TOKEN = "123456:THREE-instances-0123456789abcdefAB";

const PGBOUNCER_MISSING = await pgbouncerMissing();

/** How the instances reach the database: its own URL, or PgBouncer's in front of it. */
interface Route {
  url: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

const direct = async (databaseUrl: string): Promise<Route> => ({
  url: databaseUrl,
  env: {},
  stop: async () => undefined,
});

const throughPgBouncer = async (databaseUrl: string): Promise<Route> => {
  const bouncer = await startPgBouncer(databaseUrl);
  return { url: bouncer.url, env: { DATABASE_POOLER: "transaction" }, stop: bouncer.stop };
};

describe("three instances on one database", () => threeInstances(direct));

describe.skipIf(PGBOUNCER_MISSING !== null)(
  `three instances through PgBouncer in transaction mode${PGBOUNCER_MISSING ? ` (skipped: ${PGBOUNCER_MISSING})` : ""}`,
  () => threeInstances(throughPgBouncer),
);

function threeInstances(route: (databaseUrl: string) => Promise<Route>): void {
  let sim: Simulator;
  let telegram: FakeTelegram;
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  let connection: Route | undefined;
  let instances: RunningServiceProcess[] = [];
  let orm: Orm;

  beforeAll(async () => {
    [sim, telegram] = await Promise.all([
      startSimulator({ ...ALL_SIMULATED_BANKS, telebirr: generatedTelebirr }),
      startFakeTelegram({ token: TOKEN }),
    ]);
    const empty = await createEmptyDatabase();
    databaseUrl = empty.url;
    dropDatabase = empty.drop;
    connection = await route(databaseUrl);
    // Started together on the empty database: each finds migrations to apply.
    instances = await startThree(connection);
    orm = await openOrm({ clientUrl: databaseUrl, poolMax: 2 });
  });

  const startThree = (reached: Route) =>
    Promise.all(
      [1, 2, 3].map(() =>
        startService({
          databaseUrl: reached.url,
          bankOverrides: sim.overrides,
          env: {
            ...reached.env,
            API_RATE_LIMIT: "0",
            TELEGRAM_BOT_TOKEN: TOKEN,
            TELEGRAM_API_ROOT: telegram.apiRoot,
            BOT_MODE: "polling",
          },
        }),
      ),
    );

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await connection?.stop();
    await orm?.close(true);
    await dropDatabase?.();
    await sim?.close();
    await telegram?.close();
  });

  async function tenant(
    quota: number,
  ): Promise<{ businessId: number; branchId: number; key: string; keyId: number }> {
    const em = orm.em.fork();
    const business = await createBusiness(em, "Scale shop", quota);
    const branch = await createBranch(em, business.id, "Main");
    const { key, record } = await createApiKey(em, branch.id, "admin", { label: "scale test" });
    return { businessId: business.id, branchId: branch.id, key, keyId: record.id };
  }

  /** Request `i` of a burst, sent to the instances in turn. */
  const on = (i: number) => instances[i % instances.length] as RunningServiceProcess;

  /** `count` verifications at once by bank and reference, spread over the three. */
  const verifyAtOnce = (key: string, count: number, referenceOf: (i: number) => string) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        on(i).request("POST", "/verify", {
          key,
          json: { bank: "telebirr", transaction_number: referenceOf(i) },
        }),
      ),
    );

  it("apply the migrations once when they start together on an empty database, and all serve", async () => {
    const em = orm.em.fork();
    const rows = await em
      .getConnection()
      .execute<{ name: string; times: string }[]>(
        "select name, count(*) as times from mikro_orm_migrations group by name",
      );
    expect(rows.map((row) => row.name).sort()).toEqual([...MIGRATION_NAMES].sort());
    expect(rows.every((row) => Number(row.times) === 1)).toBe(true);
    for (const instance of instances) expect((await instance.request("GET", "/readyz")).status).toBe(200);
  });

  it("confirm exactly the quota: 500 different receipts at once over the three, quota 100", async () => {
    const shop = await tenant(100);
    const answers = await verifyAtOnce(shop.key, 500, (i) => reference("QA", i));
    const confirmed = answers.filter((answer) => answer.status === 200 && answer.body.success === true);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(confirmed).toHaveLength(100);
    expect(refused).toHaveLength(400);
    const em = orm.em.fork();
    expect(await em.count(VerificationSchema, { branch: shop.branchId, success: true })).toBe(100);
    const usage = await em.find(QuotaUsageSchema, { business: shop.businessId });
    expect(usage.reduce((sum, row) => sum + row.count, 0)).toBe(100);
  });

  it("confirm one of 100 identical verifications spread over the three; the other 99 are duplicates", async () => {
    const shop = await tenant(1000);
    const answers = await verifyAtOnce(shop.key, 100, () => reference("QB", 1));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.success === true)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.duplicate === true)).toHaveLength(99);
    const em = orm.em.fork();
    expect(await em.count(VerificationSchema, { branch: shop.branchId, success: true })).toBe(1);
  });

  it("refuse at every instance, within a second, a key revoked with the admin CLI", async () => {
    const shop = await tenant(10);
    for (const instance of instances) {
      expect((await instance.request("GET", "/verifications", { key: shop.key })).status).toBe(200);
    }
    const revoked = await runScript("src/cli/admin.ts", ["key:revoke", "--id", String(shop.keyId)], {
      ...connection?.env,
      DATABASE_URL: connection?.url ?? databaseUrl,
    });
    expect(revoked.code, revoked.stderr).toBe(0);
    for (const instance of instances) {
      await waitFor(
        async () => (await instance.request("GET", "/verifications", { key: shop.key })).status === 401,
        "the revoked key refused",
        { timeoutMs: 1_000 },
      );
    }
  });

  // It kills one of the three.
  it("poll Telegram from one instance at a time, and another takes over within 10 s when it dies", async () => {
    const polls = (instance: RunningServiceProcess) =>
      instance.logLines().some((line) => line.msg === "polling Telegram");
    const poller = await waitFor(() => instances.find(polls), "an instance polling Telegram");
    const others = instances.filter((instance) => instance !== poller);
    for (const other of others) {
      await other.waitFor(/another instance polls Telegram/);
      expect(polls(other)).toBe(false);
    }
    process.kill(poller.pid, "SIGKILL");
    const next = await waitFor(() => others.find(polls), "another instance polling Telegram", {
      timeoutMs: 10_000,
    });
    expect(others.filter(polls)).toEqual([next]);
    instances = others;
  });

  it("answer once a request whose instance died holding its Idempotency-Key, retried at another", async () => {
    const shop = await tenant(10);
    const [holder, other] = instances as [RunningServiceProcess, RunningServiceProcess];
    const retry = (instance: RunningServiceProcess) =>
      instance.request("POST", "/verify", {
        key: shop.key,
        json: { bank: "telebirr", transaction_number: reference("HO", 1) },
        headers: { "idempotency-key": "three-instances-crash-1" },
      });
    let release: () => void = () => undefined;
    bankHeld = new Promise((resolve) => {
      release = resolve;
    });
    const asked = heldAsked;
    const cut = retry(holder).catch((error: unknown) => error);
    // The key is taken before the bank is asked: once the bank is asked, the holder holds it.
    await waitFor(() => heldAsked > asked, "the holder asking the bank");
    process.kill(holder.pid, "SIGKILL");
    expect(await cut).toBeInstanceOf(Error);
    release();
    const answer = await retry(other);
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    expect(answer.headers["idempotent-replayed"]).toBe("false");
    const again = await retry(other);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(answer.body);
    const em = orm.em.fork();
    expect(await em.count(VerificationSchema, { branch: shop.branchId })).toBe(1);
    const usage = await em.find(QuotaUsageSchema, { business: shop.businessId });
    expect(usage.reduce((sum, row) => sum + row.count, 0)).toBe(1);
    instances = [other];
  });

  // After the deaths above: it restarts the three.
  it("send a manager's daily summary once, however many instances check", async () => {
    const shop = await tenant(10);
    const manager = 770_001;
    // Due since 00:00 today (Addis Ababa) and not sent: every instance's first check finds it.
    await orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into telegram_members (telegram_user_id, branch_id, role, name, summary_minute)
         values (?, ?, 'manager', 'Hana', 0)`,
        [manager, shop.branchId],
      );
    await Promise.all(instances.map((instance) => instance.stop()));
    if (!connection) throw new Error("no route to the database");
    instances = await startThree(connection);
    // Each instance checks as its bot starts, which it logs; stopping waits for a check under way.
    for (const instance of instances) await instance.waitFor(/polling Telegram|another instance polls/);
    await Promise.all(instances.map((instance) => instance.stop()));
    const summaries = telegram
      .callsOf("sendMessage")
      .filter((call) => call.payload.chat_id === manager && String(call.payload.text).startsWith("📊"));
    expect(summaries).toHaveLength(1);
  });
}
