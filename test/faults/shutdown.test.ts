import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BankCode } from "../../src/banks/codes.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { createTenant, type Tenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { START_ENTRY, startServiceProcess } from "../support/processes.js";
import { startService } from "../support/service-process.js";
import { type Banks, firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";
import { waitFor } from "../support/wait.js";

// SIGTERM at any moment: with lookups in flight, while a worker is still starting, and before any serves.
// Every accepted request gets an answer (its verification, or the 503 at the deadline for a bank that
// hangs), nothing is recorded for what got a 503, no new connection is served once the drain began, and
// the process exits 0. The slow banks answer well inside the deadline, but on a loaded machine a 503 is a
// right answer too: what must hold is that nobody is left without one.
const DEADLINE_MS = 8_000;
const BANKS: readonly BankCode[] = ["telebirr", "boa", "zemen"];
const TENANTS = 8;

let db: TestDatabase;
let banks: Banks;
let sim: Simulator;
let dataDir: string;
beforeAll(async () => {
  [db, banks, dataDir] = await Promise.all([
    createTestDatabase(),
    startBanks(),
    mkdtemp(path.join(tmpdir(), "birrcheck-shutdown-")),
  ]);
  sim = banks.sim;
});
/** Whatever a failed test left running is stopped (a service outliving its test loads the rest of the run). */
const started: { stop(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const service of started) await service.stop();
  await sim?.close();
  await db?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Sent {
  tenant: Tenant;
  bank: BankCode;
  status: number | "connection ended";
  body: string;
}

function verify(url: string, tenant: Tenant, bank: BankCode): Promise<Sent> {
  return fetch(`${url}/api/v1/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
    body: JSON.stringify(referenceBody(bank, firstExample(bank))),
  }).then(
    async (response) => ({ tenant, bank, status: response.status, body: await response.text() }),
    () => ({ tenant, bank, status: "connection ended" as const, body: "" }),
  );
}

/** Whether a new connection gets an HTTP answer: false when it is refused or reset. */
function answersNewConnection(url: string): Promise<boolean> {
  return request(`${url}/healthz`, { reset: true }).then(
    async (response) => {
      await response.body.dump();
      return true;
    },
    () => false,
  );
}

/** The service's birrcheck_http_requests_in_flight, as GET /metrics gives it. */
async function inFlight(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^birrcheck_http_requests_in_flight (\d+)$/m.exec(text)?.[1]);
}

describe("SIGTERM with lookups in flight", () => {
  it("answers every request, serves no new connection, and records only what was answered", async () => {
    // Banks answering with HTML and JSON, not PDFs: a fresh process's first PDF parse loads pdf.js. Two hold
    // their answers until the drain has begun (every request is in flight when the signal comes, however
    // slowly a loaded machine delivers them), the third never answers.
    const heldTelebirr = banks.hold("telebirr");
    const heldBoa = banks.hold("boa");
    sim.setMode("zemen", { kind: "hang" });
    sim.resetCounts();
    const service = await startService({
      databaseUrl: db.url,
      bankOverrides: sim.overrides,
      env: { VERIFY_DEADLINE_MS: String(DEADLINE_MS), API_RATE_LIMIT: "0" },
    });
    started.push(service);
    const tenants = await Promise.all(Array.from({ length: TENANTS }, () => createTenant(db)));

    const requests = tenants.flatMap((tenant) => BANKS.map((bank) => verify(service.url, tenant, bank)));
    // Every request is in the service's hands (identical lookups share one bank request, so the bank's
    // count cannot tell); the scrape counts itself too.
    await waitFor(
      async () => (await inFlight(service.url)) === requests.length + 1,
      "every request to arrive",
    );
    const stopped = service.stop(DEADLINE_MS + 10_000);
    await service.waitFor(/"msg":"draining: no new connections; answering those in flight"/, 10_000);
    expect(await answersNewConnection(service.url)).toBe(false);
    heldTelebirr.release();
    heldBoa.release();
    expect(await stopped).toBe(0);
    const sent = await Promise.all(requests);

    for (const request of sent) {
      const expected = request.bank === "zemen" ? [503] : [200, 503];
      expect(expected, `${request.bank}: ${request.status} ${request.body}`).toContain(request.status);
    }
    const em = db.orm.em.fork();
    for (const tenant of tenants) {
      const rows = await em.find(VerificationSchema, { branch: tenant.branchId });
      const answered = sent.filter((request) => request.tenant === tenant && request.status === 200);
      expect(rows.map((row) => row.bank).sort()).toEqual(answered.map((request) => request.bank).sort());
      const usage = await em.findOne(QuotaUsageSchema, { business: tenant.businessId });
      expect(usage?.count ?? 0).toBe(rows.length);
    }
    for (const bank of BANKS) sim.setMode(bank, { kind: "normal" });
  });
});

describe("SIGTERM while a worker is still starting", () => {
  it("answers what the serving worker accepted and exits without waiting for the other", async () => {
    sim.setMode("telebirr", { kind: "slow", delayMs: 800 });
    sim.resetCounts();
    const service = await startServiceProcess(
      {
        DATABASE_URL: db.url,
        BOOTSTRAP: "false",
        BANK_ORIGIN_OVERRIDES: sim.overrides,
        WEB_CONCURRENCY: "2",
        LOG_LEVEL: "info",
        // Never created: worker 2 is still starting when the signal comes.
        WORKER_2_STARTS_WHEN: path.join(dataDir, "never"),
      },
      "test/fixtures/service-with-faults.mjs",
    );
    started.push(service);
    const tenant = await createTenant(db);
    const inFlight = verify(service.url, tenant, "telebirr");
    await waitFor(() => sim.requestCount("telebirr") === 1, "the lookup to reach its bank");
    expect(await service.stop()).toBe(0);
    expect((await inFlight).status).toBe(200);
    sim.setMode("telebirr", { kind: "normal" });
  });
});

describe("SIGTERM before any worker serves", () => {
  it("stops the embedded database it was starting and exits 0", async () => {
    const child: ChildProcess = spawn(process.execPath, [START_ENTRY], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    const exited = once(child, "exit");
    await waitFor(() => output.includes("starting the embedded PostgreSQL server"), "the database to start", {
      seen: () => output,
    });
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/"msg":"listening"/);
    expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
  });
});
