import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { EntityManager } from "@mikro-orm/postgresql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBranch, createBusiness } from "../../src/admin/businesses.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { simulatedTelebirr } from "../../src/banks/telebirr/imitation.js";
import { runningEmbeddedUrl } from "../../src/db/embedded.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { openOrm } from "../../src/db/orm.js";
import { WATCHDOG_NAME } from "../../src/db/postmaster-watchdog.js";
import { processInfo } from "../../src/db/process-state.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { OUTCOME_MESSAGES } from "../../src/engine/types.js";
import { ALL_SIMULATED_BANKS } from "../../src/simulator/imitations.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimulatedBank } from "../../src/simulator/types.js";
import { runScript } from "../support/processes.js";
import {
  type RunningServiceProcess,
  type ServiceResponse,
  startService,
} from "../support/service-process.js";
import { waitFor } from "../support/wait.js";

// Crash restarts without a person: `kill -9` of the service, of its embedded
// PostgreSQL, and of the service in the middle of a burst. Each case has its own DATA_DIR, and every
// recovery happens without anyone stopping a process by hand.

const SEEDED = "DFH51OFIED";
// VERIFY_DEADLINE_MS of the services started here.
const DEADLINE_MS = 3_000;
/** Telebirr-shaped references the simulator below confirms, so 50 distinct receipts exist. */
const reference = (i: number) => `R${String(i).padStart(9, "0")}`;

/** The telebirr imitation, confirming every generated reference after 50–400 ms, so some are in flight. */
const slowGeneratedTelebirr: SimulatedBank = {
  ...simulatedTelebirr,
  async handle(request) {
    const match = /^\/receipt\/(R\d{9})$/.exec(request.path);
    const generated = match?.[1];
    if (!generated) return simulatedTelebirr.handle(request);
    await new Promise((resume) => setTimeout(resume, 50 + Math.random() * 350));
    const seeded = await simulatedTelebirr.handle({ ...request, path: `/receipt/${SEEDED}` });
    return { ...seeded, body: String(seeded.body).replaceAll(SEEDED, generated) };
  },
};

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ ...ALL_SIMULATED_BANKS, telebirr: slowGeneratedTelebirr });
});
afterAll(() => sim?.close());

// Every service a case starts is stopped after it (SIGTERM), and every data directory removed.
const started: RunningServiceProcess[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.stop()));
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "birrcheck-crash-"));
  dataDirs.push(dir);
  return dir;
}

async function serviceOn(dataDir: string): Promise<RunningServiceProcess> {
  const service = await startService({
    bankOverrides: sim.overrides,
    // A short deadline: an idempotency claim that a killed process left pending is taken over by a retry
    // once the deadline and 10 s have passed.
    env: { DATA_DIR: dataDir, VERIFY_DEADLINE_MS: String(DEADLINE_MS) },
  });
  started.push(service);
  return service;
}

/** A business (quota 1000), a branch and an admin key, written into the service's embedded database. */
async function tenantOn(dataDir: string): Promise<{ businessId: number; branchId: number; key: string }> {
  const orm = await openOrm({ clientUrl: await embeddedUrl(dataDir), poolMax: 1 });
  try {
    const em = orm.em.fork();
    const business = await createBusiness(em, "Crash shop", 1000);
    const branch = await createBranch(em, business.id, "Main");
    const { key } = await createApiKey(em, branch.id, "admin", { label: "crash test" });
    return { businessId: business.id, branchId: branch.id, key };
  } finally {
    await orm.close(true);
  }
}

async function embeddedUrl(dataDir: string): Promise<string> {
  const running = await runningEmbeddedUrl(dataDir);
  if (!running) throw new Error(`no embedded database runs in ${dataDir}`);
  return running.url;
}

/** The pid in PostgreSQL's own lock file (the running or last postmaster of the data directory). */
async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
}

/** The watchdog process guarding this data directory's server (its command line names both). */
async function watchdogPid(dataDir: string): Promise<number> {
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const command = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (command.includes(WATCHDOG_NAME) && command.includes(path.join(dataDir, "postgres"))) {
      return Number(entry);
    }
  }
  throw new Error(`no watchdog for ${dataDir}`);
}

const alive = async (pid: number) => (await processInfo(pid)).state === "alive";

/** The probe's value once `accept` takes it, or its last one after `timeoutMs` (the caller asserts on it). */
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number) {
  let last!: T;
  const accepted = async () => {
    last = await probe();
    return accept(last);
  };
  await waitFor(accepted, "a process state", { timeoutMs }).catch(() => undefined);
  return last;
}

/**
 * kill -9 of the service process; with `watchdog` (its pid), of its watchdog first (no die-with-parent).
 * The pid is looked up before, so that the kill lands when the caller says (a scan of /proc under load
 * can take longer than a burst).
 */
async function crash(service: RunningServiceProcess, watchdog?: number): Promise<void> {
  const exited = new Promise((resolve) => {
    const poll = setInterval(async () => {
      if (!(await alive(service.pid))) {
        clearInterval(poll);
        resolve(undefined);
      }
    }, 20);
  });
  if (watchdog !== undefined) process.kill(watchdog, "SIGKILL");
  process.kill(service.pid, "SIGKILL");
  await exited;
}

/** A start on the data directory that is ready (no help given) and serves an authenticated request. */
async function expectServes(service: RunningServiceProcess, key: string): Promise<void> {
  expect(service.output()).not.toMatch(/in use by another process/);
  expect(await service.request("GET", "/readyz")).toMatchObject({ status: 200 });
  expect(await service.request("GET", "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
  expect(await service.request("GET", "/verifications", { key })).toMatchObject({ status: 200 });
}

describe("kill -9 of the service", { timeout: 120_000 }, () => {
  it("takes its embedded PostgreSQL with it, and the next start is ready without help", async () => {
    const dataDir = await freshDataDir();
    const first = await serviceOn(dataDir);
    const { key } = await tenantOn(dataDir);
    const postmaster = await postmasterPid(dataDir);
    await crash(first);

    // Die with the parent: the watchdog asked the orphan for a fast shutdown.
    expect(
      await eventually(
        () => alive(postmaster),
        (up) => !up,
        10_000,
      ),
    ).toBe(false);
    await expectServes(await serviceOn(dataDir), key);
  });

  it("leaves an orphan when its watchdog dies too; the next start stops it and is ready", async () => {
    const dataDir = await freshDataDir();
    const first = await serviceOn(dataDir);
    const { key } = await tenantOn(dataDir);
    const orphan = await postmasterPid(dataDir);
    await crash(first, await watchdogPid(dataDir));

    // The orphan exists: its parent gone, it lives on. This is what blocked restarts before.
    await waitFor(
      async () => (await processInfo(orphan)).ppid !== first.pid,
      "the orphan to lose its parent",
    );
    expect(await alive(orphan)).toBe(true);

    const second = await serviceOn(dataDir);
    await expectServes(second, key);
    expect(await alive(orphan)).toBe(false);
    expect(second.output()).toContain("stopped the embedded PostgreSQL left running by a crashed process");
    expect(await postmasterPid(dataDir)).not.toBe(orphan);
  });

  it("still refuses a start while another live service owns the data directory", async () => {
    const dataDir = await freshDataDir();
    const owner = await serviceOn(dataDir);
    const { key } = await tenantOn(dataDir);
    const postmaster = await postmasterPid(dataDir);

    const second = await runScript("src/main.ts", [], {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PORT: "0",
      BOOTSTRAP: "false",
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/The embedded database in .* is in use by another process/);
    // The owner's server was left alone and still serves.
    expect(await postmasterPid(dataDir)).toBe(postmaster);
    expect(await alive(postmaster)).toBe(true);
    await expectServes(owner, key);
  });
});

describe("kill -9 of the embedded PostgreSQL under a running service", { timeout: 120_000 }, () => {
  it("fails /healthz while it is gone, restarts it, and serves again", async () => {
    const dataDir = await freshDataDir();
    const service = await serviceOn(dataDir);
    const { key } = await tenantOn(dataDir);
    const postmaster = await postmasterPid(dataDir);
    process.kill(postmaster, "SIGKILL");

    const down = await eventually(
      () => service.request("GET", "/healthz"),
      (r) => r.status === 503,
      5_000,
    );
    expect({ status: down.status, body: down.body }).toEqual({
      status: 503,
      body: { status: "unavailable", checks: { database_process: "down" } },
    });
    const back = await eventually(
      () => service.request("GET", "/healthz"),
      (r) => r.status === 200,
      30_000,
    );
    expect(back.status).toBe(200);
    await service.waitFor(/"msg":"the embedded PostgreSQL is running again"/);
    expect(await postmasterPid(dataDir)).not.toBe(postmaster);
    // The pool's connections died with the old server; new ones reach the new one.
    const served = await eventually(
      () => service.request("GET", "/verifications", { key }),
      (r) => r.status === 200,
      10_000,
    );
    expect(served.status).toBe(200);
    expect(await service.request("GET", "/readyz")).toMatchObject({ status: 200 });
  });

  it("exits non-zero when it keeps dying, and a new start then works", async () => {
    const dataDir = await freshDataDir();
    const service = await serviceOn(dataDir);
    const { key } = await tenantOn(dataDir);
    const restarts = () => service.output().split("the embedded PostgreSQL is running again").length - 1;

    // A crash loop: three restarts within a minute are allowed, the fourth death is the end.
    for (let death = 1; death <= 4; death++) {
      process.kill(await postmasterPid(dataDir), "SIGKILL");
      if (death < 4)
        expect(
          await eventually(
            async () => restarts(),
            (n) => n === death,
            30_000,
          ),
        ).toBe(death);
    }
    expect(
      await eventually(
        () => alive(service.pid),
        (up) => !up,
        10_000,
      ),
    ).toBe(false);
    expect(await service.stop()).toBe(1);
    expect(service.output()).toContain("the embedded PostgreSQL cannot be restarted");

    await expectServes(await serviceOn(dataDir), key);
  });
});

describe("kill -9 of the service during a burst of 50 verifications", { timeout: 120_000 }, () => {
  it("restarts ready, with quota equal to the recorded rows, nothing half-written, every receipt verifiable", async () => {
    const dataDir = await freshDataDir();
    const first = await serviceOn(dataDir);
    const tenant = await tenantOn(dataDir);
    const references = Array.from({ length: 50 }, (_, i) => reference(i));

    // The orphan path (the watchdog dies too): the case that needed a person before.
    const watchdog = await watchdogPid(dataDir);
    let answered = 0;
    let crashed: Promise<void> | undefined;
    // The burst is paced over a second (no event to wait for: it is the load's shape), so that the kill at
    // the 15th answer lands inside it (sent all at once, a fast machine answered all 50 before the kill).
    const burst = await Promise.allSettled(
      references.map(async (transactionNumber, i) => {
        await delay(i * 20);
        const response = await post(
          first.url,
          tenant.key,
          transactionNumber,
          burstHeaders(transactionNumber),
        );
        if (++answered === 15) crashed = crash(first, watchdog);
        return response;
      }),
    );
    await crashed;
    const answers = burst.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    // Some answered before the kill and some were cut off by it: the burst really was interrupted.
    expect(answers.length).toBeGreaterThanOrEqual(15);
    expect(answers.length).toBeLessThan(50);
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { success: true } });

    const second = await serviceOn(dataDir);
    await expectServes(second, tenant.key);

    const orm = await openOrm({ clientUrl: await embeddedUrl(dataDir), poolMax: 1 });
    try {
      const em = orm.em.fork();
      const rows = await em.find(VerificationSchema, { branch: tenant.branchId }, { orderBy: { id: "asc" } });
      // Nothing half-written: every row is a whole confirmation of one receipt of the burst, once.
      for (const row of rows) {
        expect(row).toMatchObject({ success: true, exists: true, sandbox: false, message: null });
        expect(references).toContain(row.transactionNumber);
        expect(row.amount).not.toBeNull();
        expect(row.bankAnswer).not.toBeNull();
      }
      expect(new Set(rows.map((row) => row.transactionNumber)).size).toBe(rows.length);
      // Every answer a client received is durable: its row survived the kill.
      const ids = new Set(rows.map((row) => row.id));
      for (const answer of answers) expect(ids.has(Number(answer.body.data.verification_id))).toBe(true);
      // Atomic rows and quota: each recorded verification that spends quota took exactly one unit.
      expect(await usedQuota(em, tenant.businessId)).toBe(spendingQuota(rows));

      // Every receipt of the burst is answered on the first retry with its key, all retried at once. A
      // receipt whose row was committed before the kill had its answer kept in the same transaction: the
      // retry gets that original 200 (never "duplicate" of itself), answered or not. A request cut off
      // before its row was written left a claim whose lease died with its process: the retry takes it over
      // and confirms, with a deadline of its own (never a 503 for a claim nobody holds).
      const committed = new Map(rows.map((row) => [row.transactionNumber, row.id]));
      const retries = await Promise.all(
        references.map((transactionNumber) =>
          post(second.url, tenant.key, transactionNumber, burstHeaders(transactionNumber)),
        ),
      );
      for (const [i, again] of retries.entries()) {
        const transactionNumber = references[i] ?? "";
        expect(again.status, `${transactionNumber}: ${JSON.stringify(again.body)}`).toBe(200);
        const earlier = committed.get(transactionNumber);
        expect(again.body).toMatchObject({ success: true, duplicate: false });
        if (earlier !== undefined) {
          expect(again.replayed).toBe("true");
          expect(Number(again.body.data.verification_id)).toBe(earlier);
        }
      }
      const after = await orm.em.fork().find(VerificationSchema, { branch: tenant.branchId });
      expect(after.filter((row) => row.success)).toHaveLength(50);
      expect(await usedQuota(orm.em.fork(), tenant.businessId)).toBe(50);
      expect(spendingQuota(after)).toBe(50);
    } finally {
      await orm.close(true);
    }
  });
});

/** Each burst request carries an Idempotency-Key of its own, as a careful client sends it. */
function burstHeaders(transactionNumber: string): Record<string, string> {
  return { "idempotency-key": `burst-${transactionNumber}` };
}

async function post(
  url: string,
  key: string,
  transactionNumber: string,
  headers: Record<string, string>,
): Promise<ServiceResponse & { replayed: string | null }> {
  const response = await fetch(`${url}/api/v1/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ bank: "telebirr", transaction_number: transactionNumber }),
  });
  return {
    status: response.status,
    body: await response.json(),
    headers: Object.fromEntries(response.headers),
    replayed: response.headers.get("idempotent-replayed"),
  };
}

/** Records that spend quota (records.ts): every non-sandbox record but the "already verified" ones. */
function spendingQuota(rows: { sandbox: boolean; message?: string | null }[]): number {
  return rows.filter((row) => !row.sandbox && row.message !== OUTCOME_MESSAGES.duplicate).length;
}

async function usedQuota(em: EntityManager, businessId: number): Promise<number> {
  const usage = await em.findOne(QuotaUsageSchema, { business: businessId, month: quotaMonth(new Date()) });
  return usage?.count ?? 0;
}
