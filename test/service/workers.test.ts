import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Pool, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database.js";
import { type ServiceProcess, START_ENTRY, startServiceProcess } from "../support/processes.js";
import { firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";
import { waitFor } from "../support/wait.js";

// The built service as deployed on a machine with several cores: a cluster primary that starts the embedded
// PostgreSQL once and supervises two worker processes serving one port (WEB_CONCURRENCY=2). It is started
// through a fixture whose workers fail when a test asks (test/fixtures/service-with-faults.mjs).
const FAULTS = "test/fixtures/service-with-faults.mjs";
let dataDir: string;
let sim: Simulator;
let service: ServiceProcess;
let key = "";

/** The `n`-th "listening" line: every worker logs one when it serves. */
const listening = (n: number) => new RegExp(`(?:"msg":"listening"[^]*){${n}}`);
const trigger = (name: string) => path.join(dataDir, name);

/** /readyz on a connection of its own, so that any worker may answer it. */
async function readiness(url: string): Promise<{ status: number; body: { checks: { workers?: string } } }> {
  const response = await request(`${url}/readyz`, { reset: true });
  return {
    status: response.statusCode,
    body: (await response.body.json()) as { checks: { workers?: string } },
  };
}

/** Waits until /readyz answers `status`. */
async function readyzBecomes(url: string, status: number): Promise<void> {
  let last: Awaited<ReturnType<typeof readiness>> | undefined;
  const answered = async () => {
    last = await readiness(url);
    return last.status === status;
  };
  await waitFor(answered, `/readyz to answer ${status}`, { seen: () => JSON.stringify(last) });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-workers-"));
  ({ sim } = await startBanks());
  service = await startServiceProcess(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      WEB_CONCURRENCY: "2",
      BANK_ORIGIN_OVERRIDES: sim.overrides,
      LOG_LEVEL: "info",
      WORKER_2_STARTS_WHEN: trigger("worker-2-starts"),
      WORKER_2_DIES_WHEN: trigger("worker-2-dies"),
      WORKER_3_BLOCKS_WHEN: trigger("worker-3-blocks"),
    },
    FAULTS,
  );
  key = (await service.waitFor(/^\s+(chk_[0-9A-Za-z]{43})$/m, 30_000))[1] ?? "";
}, 90_000);

afterAll(async () => {
  await sim?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the service with two workers", () => {
  it("is not ready until every worker serves", async () => {
    // Worker 1 serves; worker 2 waits for its trigger before it loads the service.
    expect(await readiness(service.url)).toMatchObject({
      status: 503,
      body: { checks: { workers: "1 of 2 serving" } },
    });
    await writeFile(trigger("worker-2-starts"), "");
    await service.waitFor(/"workers":2,"msg":"every worker serves"/, 30_000);
    expect(await readiness(service.url)).toMatchObject({ status: 200, body: { checks: { workers: "ok" } } });
  });

  it("starts the embedded database once, migrates once and shows the first admin key once", () => {
    const output = service.output();
    expect(output.match(/starting the embedded PostgreSQL server/g)).toHaveLength(1);
    expect(output.match(/Birrcheck is set up/g)).toHaveLength(1);
    // Both workers open the database; the migration lock lets one apply the migrations.
    expect(output.match(/"msg":"database migrated"/g)).toHaveLength(1);
    expect(output.match(/"msg":"listening"/g)).toHaveLength(2);
  });

  it("keeps one record of identical verifications arriving on both workers", async () => {
    sim.setMode("telebirr", { kind: "slow", delayMs: 500 });
    sim.resetCounts();
    // Separate connections, which the primary hands to both workers in turn.
    const pool = new Pool(service.url, { connections: 20 });
    try {
      const body = JSON.stringify(referenceBody("telebirr", firstExample("telebirr")));
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await pool.request({
            path: "/api/v1/verify",
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body,
          });
          return (await response.body.json()) as { success: boolean; duplicate?: boolean };
        }),
      );
      expect(answers.filter((a) => a.success)).toHaveLength(1);
      expect(answers.filter((a) => a.duplicate)).toHaveLength(19);
      // Identical lookups collapse within a worker: at most one bank request per worker.
      expect(sim.requestCount("telebirr")).toBeGreaterThanOrEqual(1);
      expect(sim.requestCount("telebirr")).toBeLessThanOrEqual(2);
    } finally {
      sim.setMode("telebirr", { kind: "normal" });
      await pool.close();
    }
  });

  it("answers GET /metrics with every worker's counters merged", async () => {
    // Whichever worker a scrape reaches, it counts the 20 verifications above (1 confirmed, 19 duplicates).
    for (let i = 0; i < 4; i++) {
      const response = await request(`${service.url}/metrics`, { reset: true });
      const text = await response.body.text();
      const counted = [
        ...text.matchAll(/^birrcheck_verifications_total\{[^}]*bank="telebirr"[^}]*\} (\d+)$/gm),
      ];
      expect(counted.reduce((sum, match) => sum + Number(match[1]), 0)).toBe(20);
    }
  });

  it("starts another worker when one dies, and keeps serving meanwhile", async () => {
    await writeFile(trigger("worker-2-dies"), "");
    const [died] = await service.waitFor(/.*"msg":"worker exited; starting another".*/, 10_000);
    expect(died).toMatch(/"worker":2,"code":1,/);
    expect(service.output()).toMatch(/Error: worker 2 dies, as the test asked/);
    expect((await request(`${service.url}/healthz`, { reset: true })).statusCode).toBe(200);
    await service.waitFor(listening(3), 30_000);
    await readyzBecomes(service.url, 200);
  });

  it("gives a worker whose event loop is blocked no new connections, and replaces it", async () => {
    await writeFile(trigger("worker-3-blocks"), "");
    // Requests on connections of their own, until the primary has replaced worker 3; each notes whether
    // worker 3 had blocked (its marker file) when it was sent.
    const sent: Promise<{ afterBlock: boolean; status: number | "no answer" }>[] = [];
    const replaced = service.waitFor(
      /"worker":3,[^\n]*"msg":"worker stopped responding; replacing it"/,
      30_000,
    );
    let done = false;
    void replaced.finally(() => {
      done = true;
    });
    while (!done) {
      const afterBlock = existsSync(trigger("worker-3-blocks.blocked"));
      sent.push(
        request(`${service.url}/healthz`, { reset: true, headersTimeout: 10_000 }).then(
          async (response) => {
            await response.body.dump();
            return { afterBlock, status: response.statusCode };
          },
          () => ({ afterBlock, status: "no answer" as const }),
        ),
      );
      // Paces the requests (the load's shape); what ends them is the replacement's log line.
      await new Promise((resume) => setTimeout(resume, 100));
    }
    await replaced;
    const afterBlock = (await Promise.all(sent)).filter((answer) => answer.afterBlock);
    // The primary hands a worker a new connection only once it took the last one, so a blocked worker holds
    // at most the one it was handed as it blocked; every other new connection went to worker 1.
    expect(afterBlock.length).toBeGreaterThan(1);
    expect(afterBlock.filter((answer) => answer.status !== 200).length).toBeLessThanOrEqual(1);
    await service.waitFor(listening(4), 30_000);
    await readyzBecomes(service.url, 200);
  });

  it("fails /healthz on every worker while the embedded PostgreSQL is down, and recovers", async () => {
    const pidFile = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8");
    process.kill(Number(pidFile.split("\n")[0]), "SIGKILL");
    // Separate connections, so that both workers answer.
    const statuses = async () =>
      new Set(
        await Promise.all(
          Array.from({ length: 6 }, async () => {
            const response = await request(`${service.url}/healthz`, { reset: true });
            await response.body.dump();
            return response.statusCode;
          }),
        ),
      );
    const until = (status: number) =>
      waitFor(async () => {
        const seen = await statuses();
        return seen.size === 1 && seen.has(status);
      }, `/healthz to answer only ${status}`);
    await until(503);
    await service.waitFor(/"msg":"the embedded PostgreSQL is running again"/, 30_000);
    await until(200);
  });

  it("drains every worker and stops the database on SIGTERM", async () => {
    const code = await service.stop();
    const output = service.output();
    expect(code, output.slice(-4000)).toBe(0);
    expect(output.match(/"worker":\d+,"msg":"stopped"/g)).toHaveLength(2);
    expect(output).toMatch(/"msg":"stopped"\}\s*$/);
  });
});

describe("a primary and its workers on DATABASE_URL", () => {
  it("starts no embedded server and gives the workers the URL it was given", async () => {
    const database = await createTestDatabase();
    const onUrl = await startServiceProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: "2",
      LOG_LEVEL: "info",
      BOOTSTRAP: "false",
    });
    try {
      await onUrl.waitFor(/"msg":"every worker serves"/, 30_000);
      expect((await readiness(onUrl.url)).status).toBe(200);
      expect(onUrl.output()).not.toMatch(/embedded PostgreSQL/);
    } finally {
      expect(await onUrl.stop()).toBe(0);
      await database.drop();
    }
  }, 60_000);
});

describe("a first worker that cannot start", () => {
  it("makes the primary stop and exit 1, the worker having said why on stderr", () => {
    const result = spawnSync(process.execPath, [FAULTS], {
      env: { ...process.env, DATA_DIR: dataDir, WEB_CONCURRENCY: "2", PORT: "0", WORKER_1_THROWS: "1" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Error: worker 1 cannot start, as the test asked\n\s+at /);
    expect(result.stdout).toMatch(/"msg":"a worker could not start; stopping"/);
  });
});

describe("a port that is taken", () => {
  it("makes the service say so and exit 1", async () => {
    const database = await createTestDatabase();
    const taken = net.createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    try {
      const result = spawnSync(process.execPath, [START_ENTRY], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          WEB_CONCURRENCY: "2",
          BOOTSTRAP: "false",
          HOST: "127.0.0.1",
          PORT: String((taken.address() as net.AddressInfo).port),
        },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/"code":"EADDRINUSE"[^\n]*"msg":"start failed"/);
    } finally {
      taken.close();
      await database.drop();
    }
  }, 60_000);
});
