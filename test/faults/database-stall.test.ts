import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgresClient from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../src/db/embedded.js";
import { VerificationSchema } from "../../src/db/entities/index.js";
import { openOrm } from "../../src/db/orm.js";
import { createTenant } from "../support/api.js";
import type { TestDatabase } from "../support/database.js";
import {
  type RunningServiceProcess,
  type ServiceResponse,
  startService,
} from "../support/service-process.js";
import { firstExample, referenceBody } from "../support/simulator.js";
import { waitFor, within } from "../support/wait.js";

// PostgreSQL stalled (SIGSTOP of the postmaster and every backend: a frozen VM, a stuck disk) under load.
// This suite owns its PostgreSQL: the shared server and the run's database are never stopped.

const ACQUIRE_MS = 1_000;
const STATEMENT_MS = 1_500;
const POOL_MAX = 5;
const UNAVAILABLE = { message: "The service is temporarily unavailable. Please try again later." };
/** Waves of requests while the database stays stopped, after the one in flight when it stopped. */
const WAVES = 3;

let dataDir: string;
let pg: EmbeddedDatabase;
let db: TestDatabase;
let service: RunningServiceProcess;
let key: string;
/** A sandbox key of the same branch: its verifications ask the service's own bank simulator. */
let sandboxKey: string;
let branchId: number;
let stopped: number[] = [];
/** Every POST /verify answered 200 during the run: each must have its record at the end. */
let verified = 0;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-stall-"));
  pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  const orm = await openOrm({ clientUrl: pg.url, poolMax: 2 });
  db = { url: pg.url, orm, drop: () => orm.close(true) };
  const tenant = await createTenant(db, { name: "stall" });
  key = tenant.key;
  branchId = tenant.branchId;
  sandboxKey = (await createApiKey(orm.em.fork(), tenant.branchId, "cashier", { test: true })).key;
  // The suite's own connections stay out of the stall.
  await db.drop();
  service = await startService({
    databaseUrl: pg.url,
    env: {
      DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS),
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
      DB_POOL_MAX: String(POOL_MAX),
      API_RATE_LIMIT: "0",
    },
  });
});
afterAll(async () => {
  // Never leave a stopped PostgreSQL behind, whatever failed.
  signal(stopped, "SIGCONT");
  const code = await service?.stop();
  await pg?.stop();
  await rm(dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** The postmaster (line 1 of postmaster.pid) and all its children: every backend and helper process. */
async function postgresProcesses(): Promise<number[]> {
  const pidFile = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8");
  const postmaster = Number(pidFile.split("\n")[0]);
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Gone already.
    }
  }
}

interface Timed extends ServiceResponse {
  path: string;
  /** How long the answer took: reported, not asserted (the bench's figure). */
  ms: number;
}

async function timed(path: string): Promise<Timed> {
  const started = performance.now();
  const response = await service.request("GET", path, { key });
  return { path, ...response, ms: performance.now() - started };
}

/** A sandbox verification (the first confirms, the later ones are duplicates: each writes a record). */
async function verification(): Promise<Timed> {
  const started = performance.now();
  const response = await service.request("POST", "/verify", {
    key: sandboxKey,
    json: referenceBody("telebirr", firstExample("telebirr")),
  });
  if (response.status === 200) verified += 1;
  return { path: "/verify", ...response, ms: performance.now() - started };
}

/**
 * 30 history requests, 3 CSV exports (their own query path, src/db/each-row.ts) and 10 readiness probes at
 * once. A request that hangs on the stalled database fails the wait, with a message: every answer must
 * come from the service's own limits (DB_ACQUIRE_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS), not from the
 * database coming back.
 */
function burst(): Promise<Timed[]> {
  return within(
    Promise.all([
      ...Array.from({ length: 30 }, () => timed("/verifications")),
      ...Array.from({ length: 3 }, () => timed("/verifications/export")),
      ...Array.from({ length: 5 }, () => verification()),
      ...Array.from({ length: 10 }, () => timed("/readyz")),
    ]),
    "every answer of a burst",
  );
}

/** Bursts until one is answered 200 throughout; any 500 on the way fails. */
async function servedThroughout(what: string, requests: () => Promise<Timed[]>): Promise<void> {
  await waitFor(async () => {
    const answers = await requests();
    for (const answer of answers) {
      expect(answer.status, `${answer.path} ${what}: ${serviceErrors()}`).not.toBe(500);
    }
    return answers.every((answer) => answer.status === 200);
  }, what);
}

describe("PostgreSQL stalled under load", () => {
  it("answers 503 from its own limits, never 500, and recovers without a restart", async () => {
    // Warm: pooled connections exist and are idle, as in production. On a loaded machine a burst may meet
    // the 1 s acquire limit while the pool opens its connections: its 503s are right, and it is tried again.
    await servedThroughout("while warming up", burst);

    // Requests in flight when the database stops (or just sent: their answers may be either), then waves
    // while it stays stopped: the first meets idle pooled connections, the later ones connections that
    // still owe an answer.
    const inFlight = burst();
    stopped = await postgresProcesses();
    expect(stopped.length).toBeGreaterThan(3);
    signal(stopped, "SIGSTOP");
    const during: Timed[] = [];
    const first = await inFlight;
    for (let wave = 0; wave < WAVES; wave++) during.push(...(await burst()));
    // Many probes on a stalled database must not take connections from the pool.
    during.push(
      ...(await within(
        Promise.all(Array.from({ length: 50 }, () => timed("/readyz"))),
        "50 readiness probes",
      )),
    );

    // A 500 is an error the service did not recognise as the database's: its log line says which.
    const failed = [...first, ...during].filter((response) => response.status === 500);
    expect(failed, serviceErrors()).toEqual([]);
    for (const response of first) expect([200, 503]).toContain(response.status);
    expect(during.filter((response) => response.path === "/verifications/export").length).toBe(3 * WAVES);
    for (const response of during) {
      if (response.path === "/readyz") {
        expect(response).toMatchObject({
          status: 503,
          body: { status: "unavailable", checks: { database: "unreachable" } },
        });
      } else {
        expect({
          status: response.status,
          body: response.body,
          retryAfter: response.headers["retry-after"],
        }).toEqual({ status: 503, body: UNAVAILABLE, retryAfter: "1" });
      }
    }
    // Once a request found the database unreachable, the later ones were refused without waiting for a
    // connection: the service says so in its metrics (and /healthz, the process's liveness, stays 200).
    const stalledMetrics = await metrics();
    expect(stalledMetrics.get("birrcheck_database_reachable")).toBe(0);
    expect(stalledMetrics.get("birrcheck_database_refusals_total")).toBeGreaterThan(0);
    expect((await timed("/healthz")).status).toBe(200);
    const slowest = Math.max(...during.map((response) => response.ms));
    console.info(
      `stalled: ${during.length} answers, slowest ${Math.round(slowest)} ms, ` +
        `median ${Math.round(median(during.map((response) => response.ms)))} ms`,
    );

    // Back: ready again and serving, the pool whole (more requests at once than it has connections).
    signal(stopped, "SIGCONT");
    stopped = [];
    const resumedAt = performance.now();
    await waitFor(async () => (await timed("/readyz")).status === 200, "ready again after SIGCONT");
    await servedThroughout("after SIGCONT", () =>
      Promise.all(Array.from({ length: 4 * POOL_MAX }, () => timed("/verifications"))),
    );
    console.info(`served again ${Math.round(performance.now() - resumedAt)} ms after SIGCONT`);
    expect((await metrics()).get("birrcheck_database_reachable")).toBe(1);
    // The access log agrees: no request of the whole run ended 500.
    const statuses = new Set(service.logLines().map((line) => line.status));
    expect(statuses.has(503)).toBe(true);
    expect(statuses.has(500)).toBe(false);
    // Nothing answered was lost: every verification answered 200 has its whole record (one whose commit the
    // stall cut off may have one too, with a 503: its client retries with an Idempotency-Key).
    const orm = await openOrm({ clientUrl: pg.url, poolMax: 1 });
    try {
      const rows = await orm.em.fork().find(VerificationSchema, { branch: branchId, sandbox: true });
      expect(rows.length).toBeGreaterThanOrEqual(verified);
      expect(verified).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatchObject({ bank: "telebirr", exists: true, sandbox: true });
      expect(rows.filter((row) => row.success)).toHaveLength(1);
    } finally {
      await orm.close(true);
    }
  });
});

describe("a pooled connection whose statement went unanswered", () => {
  it("is never lent again, even once the server answers late inside the transaction it left open", async () => {
    const orm = await openOrm({
      clientUrl: pg.url,
      poolMax: 1,
      timeouts: { acquireTimeoutMs: ACQUIRE_MS, statementTimeoutMs: STATEMENT_MS },
    });
    const watcher = new postgresClient.Client({ connectionString: pg.url });
    await watcher.connect();
    let stoppedBackend: number | undefined;
    try {
      const connection = orm.em.getConnection();
      const backend = async () =>
        (
          await connection.execute<{ pid: number; own: boolean }[]>(
            "select pg_backend_pid() as pid, now() = statement_timestamp() as own",
          )
        )[0];
      const before = await backend();
      // The backend stops between two statements of a transaction: the second one times out on the client,
      // and so does the ROLLBACK queued behind it, which is never sent.
      const transaction = orm.em.fork().transactional(async (em) => {
        await em.getConnection().execute("select 1", [], "all", em.getTransactionContext());
        stoppedBackend = before?.pid;
        if (stoppedBackend) process.kill(stoppedBackend, "SIGSTOP");
        await em.getConnection().execute("select 2", [], "all", em.getTransactionContext());
      });
      await expect(transaction).rejects.toThrow(/Query read timeout/);
      if (stoppedBackend) signal([stoppedBackend], "SIGCONT");
      // The late answer arrives: the old connection now looks ready, inside the transaction it left open.
      await waitFor(async () => {
        const { rows } = await watcher.query("select state from pg_stat_activity where pid = $1", [
          stoppedBackend,
        ]);
        return rows[0]?.state === "idle in transaction";
      }, "the stopped backend's late answer");
      const after = await backend();
      expect(after?.pid).not.toBe(before?.pid);
      expect(after?.own).toBe(true);
    } finally {
      // Never leave it stopped; the pool may already have closed it (ESRCH).
      if (stoppedBackend) signal([stoppedBackend], "SIGCONT");
      await watcher.end();
      await orm.close(true);
    }
  });
});

/** The service's unlabelled metrics by name (Prometheus text). */
async function metrics(): Promise<Map<string, number>> {
  const { body } = await service.request("GET", "/metrics");
  const values = new Map<string, number>();
  for (const match of String(body).matchAll(/^(\w+) (\S+)$/gm)) values.set(match[1] ?? "", Number(match[2]));
  return values;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The service's error lines, for the message of a failed assertion. */
function serviceErrors(): string {
  const lines = service.output().split("\n");
  // The lines of the requests that answered 500, when the access log has any; else the first errors.
  const failed = new Set(
    service
      .logLines()
      .filter((line) => line.status === 500)
      .map((line) => line.requestId),
  );
  const ofFailed = lines.filter((line) =>
    [...failed].some((id) => typeof id === "string" && line.includes(id)),
  );
  const errors = lines.filter((line) => /"level":(50|60)/.test(line));
  return (ofFailed.length > 0 ? ofFailed : errors).slice(0, 10).join("\n");
}
