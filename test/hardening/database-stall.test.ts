import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../src/db/embedded.js";
import { openOrm } from "../../src/db/orm.js";
import { createTenant } from "../support/api.js";
import type { TestDatabase } from "../support/database.js";
import {
  type RunningServiceProcess,
  type ServiceResponse,
  startService,
} from "../support/service-process.js";

// PostgreSQL stalled (SIGSTOP of the postmaster and every backend: a frozen VM, a stuck disk) under load.
// This suite owns its PostgreSQL: the shared server and the run's database are never stopped.

const ACQUIRE_MS = 1_000;
const STATEMENT_MS = 1_500;
/** What the issue allows for one answer while the database stalls. */
const BOUND_MS = ACQUIRE_MS + STATEMENT_MS + 2_000;
const POOL_MAX = 5;
const UNAVAILABLE = { message: "The service is temporarily unavailable. Please try again later." };

let dataDir: string;
let pg: EmbeddedDatabase;
let db: TestDatabase;
let service: RunningServiceProcess;
let key: string;
let stopped: number[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-stall-"));
  pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  const orm = await openOrm({ clientUrl: pg.url, poolMax: 2 });
  db = { url: pg.url, orm, drop: () => orm.close(true) };
  ({ key } = await createTenant(db, { name: "stall" }));
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
}, 90_000);
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
  ms: number;
}

async function timed(path: string): Promise<Timed> {
  const started = performance.now();
  const response = await service.request("GET", path, { key });
  return { path, ...response, ms: performance.now() - started };
}

/** 30 history requests, 3 CSV exports (their own query path, src/db/each-row.ts) and 10 readiness probes at once. */
function burst(): Promise<Timed[]> {
  return Promise.all([
    ...Array.from({ length: 30 }, () => timed("/verifications")),
    ...Array.from({ length: 3 }, () => timed("/verifications/export")),
    ...Array.from({ length: 10 }, () => timed("/readyz")),
  ]);
}

describe("PostgreSQL stalled under load", () => {
  it("answers 503 within seconds, never 500, and recovers without a restart", {
    timeout: 90_000,
  }, async () => {
    // Warm: pooled connections exist and are idle, as in production.
    for (const response of await burst()) expect(response.status).toBe(200);

    // Requests in flight when the database stops, then two more waves while it stays stopped: the first
    // meets idle pooled connections, the later ones connections that still owe an answer.
    const inFlight = burst();
    await new Promise((resolve) => setTimeout(resolve, 5));
    stopped = await postgresProcesses();
    expect(stopped.length).toBeGreaterThan(3);
    signal(stopped, "SIGSTOP");
    const stalledAt = performance.now();
    const during: Timed[] = [];
    const first = await inFlight;
    while (performance.now() - stalledAt < 3 * BOUND_MS) during.push(...(await burst()));
    // Many probes on a stalled database must not take connections from the pool.
    during.push(...(await Promise.all(Array.from({ length: 50 }, () => timed("/readyz")))));

    for (const response of [...first, ...during]) {
      expect({ path: response.path, status: response.status }).not.toEqual({
        path: response.path,
        status: 500,
      });
      expect(response.ms).toBeLessThan(BOUND_MS);
    }
    for (const response of first) expect([200, 503]).toContain(response.status);
    expect(during.filter((response) => response.path === "/verifications/export").length).toBeGreaterThan(0);
    expect(during.length).toBeGreaterThanOrEqual(3 * 43);
    for (const response of during) {
      if (response.path === "/readyz") {
        expect(response).toMatchObject({
          status: 503,
          body: { status: "unavailable", checks: { database: "unreachable" } },
        });
      } else {
        expect({ status: response.status, body: response.body }).toEqual({ status: 503, body: UNAVAILABLE });
      }
    }
    const slowest = Math.max(...during.map((response) => response.ms));
    console.info(
      `stalled: ${during.length} answers, slowest ${Math.round(slowest)} ms, ` +
        `median ${Math.round(median(during.map((response) => response.ms)))} ms`,
    );

    // Back: ready again and serving, the pool whole (more requests at once than it has connections).
    signal(stopped, "SIGCONT");
    stopped = [];
    const resumedAt = performance.now();
    for (;;) {
      if ((await timed("/readyz")).status === 200) break;
      expect(performance.now() - resumedAt).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const after = await Promise.all(Array.from({ length: 4 * POOL_MAX }, () => timed("/verifications")));
    for (const response of after) {
      expect(response.status).toBe(200);
      expect(response.ms).toBeLessThan(BOUND_MS);
    }
    console.info(`ready ${Math.round(performance.now() - resumedAt)} ms after SIGCONT`);
    // The access log agrees: no request of the whole run ended 500.
    const statuses = new Set(service.logLines().map((line) => line.status));
    expect(statuses.has(503)).toBe(true);
    expect(statuses.has(500)).toBe(false);
  });
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
