import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Pool, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database.js";
import { type ServiceProcess, startServiceProcess } from "../support/processes.js";
import { firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";

// The compiled service as deployed on a machine with several cores: a primary that starts the embedded
// PostgreSQL once and runs two worker threads listening on one port (WEB_CONCURRENCY=2). It is
// started through a fixture whose worker 2 crashes when asked.
let dataDir: string;
let sim: Simulator;
let service: ServiceProcess;
let key = "";

/** The `n`-th "listening" line: every worker logs one when it serves. */
const listening = (n: number) => new RegExp(`(?:"msg":"listening"[^]*){${n}}`);
const workersServing = () =>
  new Set(
    service
      .output()
      .split("\n")
      .filter((line) => line.includes('"path":"/api/v1/verify"'))
      .map((line) => /"worker":(\d+)/.exec(line)?.[1]),
  );

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
      WORKER_2_DIES_WHEN: path.join(dataDir, "worker-2-dies"),
      WORKER_3_OUTGROWS_HEAP_WHEN: path.join(dataDir, "worker-3-outgrows-its-heap"),
    },
    "test/fixtures/service-whose-worker-dies.mjs",
  );
  key = (await service.waitFor(/^\s+(chk_[0-9A-Za-z]{43})$/m, 30_000))[1] ?? "";
  await service.waitFor(listening(2), 30_000);
}, 90_000);

afterAll(async () => {
  await sim?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the service with two workers", () => {
  it("starts the embedded database once, migrates once and shows the first admin key once", () => {
    const output = service.output();
    expect(output.match(/starting the embedded PostgreSQL server/g)).toHaveLength(1);
    expect(output.match(/Birrcheck is set up/g)).toHaveLength(1);
    // The first worker brings the schema up to date; the second starts after it and leaves the migrator unloaded.
    expect(output.match(/"msg":"database migrated"/g)).toHaveLength(1);
  });

  it("has both workers listen on the service's port themselves, with no relay through the primary", () => {
    const port = new URL(service.url).port;
    const lines = service.output().match(/.*"msg":"listening".*/g) ?? [];
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toContain(`"connections":"shared port","port":${port},`);
  });

  it("collapses identical verifications arriving on different workers into one bank request", async () => {
    sim.setMode("telebirr", { kind: "slow", delayMs: 500 });
    sim.resetCounts();
    // Separate connections, so the kernel hands them to both workers' sockets (all 20 to one: 1 in 2^19).
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
      expect(workersServing()).toEqual(new Set(["1", "2"]));
      expect(sim.requestCount("telebirr")).toBe(1);
      expect(answers.filter((a) => a.success)).toHaveLength(1);
      expect(answers.filter((a) => a.duplicate)).toHaveLength(19);
    } finally {
      sim.setMode("telebirr", { kind: "normal" });
      await pool.close();
    }
  });

  it("answers GET /metrics with every worker's counters merged", async () => {
    // The 20 verifications above were answered by both workers; whichever worker a scrape reaches, it
    // counts all of them (1 confirmed, 19 duplicates).
    for (let i = 0; i < 4; i++) {
      const text = await (await fetch(`${service.url}/metrics`)).text();
      const counted = [
        ...text.matchAll(/^birrcheck_verifications_total\{[^}]*bank="telebirr"[^}]*\} (\d+)$/gm),
      ];
      expect(counted.reduce((sum, match) => sum + Number(match[1]), 0)).toBe(20);
      // The workers are threads of one process: its figures are taken once, not summed over them.
      const started = Number(/^process_start_time_seconds (\d+)$/m.exec(text)?.[1]);
      expect(started).toBeGreaterThan(Date.now() / 1000 - 600);
      expect(started).toBeLessThanOrEqual(Date.now() / 1000);
    }
  });

  it("starts another worker when one dies, and keeps serving meanwhile", async () => {
    await writeFile(path.join(dataDir, "worker-2-dies"), "");
    const [died] = await service.waitFor(/.*"msg":"worker died; starting another".*/, 10_000);
    expect(died).toMatch(/"worker":2,"code":1,"err":\{[^}]*"message":"worker 2 dies, as the test asked"/);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    await service.waitFor(listening(3), 30_000);
  });

  it("ends a worker that outgrows its heap limit and starts another, the process serving throughout", async () => {
    await writeFile(path.join(dataDir, "worker-3-outgrows-its-heap"), "");
    const [died] = await service.waitFor(
      /.*"worker":3,[^\n]*"msg":"worker died; starting another".*/,
      30_000,
    );
    expect(died).toMatch(/"code":"ERR_WORKER_OUT_OF_MEMORY"/);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    await service.waitFor(listening(4), 30_000);
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
    const until = async (status: number) => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        const seen = await statuses();
        if (seen.size === 1 && seen.has(status)) return;
        await new Promise((resume) => setTimeout(resume, 50));
      }
      throw new Error(`/healthz never answered only ${status}`);
    };
    await until(503);
    await service.waitFor(/"msg":"the embedded PostgreSQL is running again"/, 30_000);
    await until(200);
  });

  it("drains every worker and stops the database on SIGTERM", async () => {
    expect(await service.stop()).toBe(0);
    const output = service.output();
    expect(output.match(/"worker":\d+,"msg":"stopped"/g)).toHaveLength(2);
    expect(output).toMatch(/"msg":"stopped"\}\s*$/);
  });
});

describe("a primary and its workers on DATABASE_URL", () => {
  it("starts no embedded server: the first worker hands the primary the URL it was given", async () => {
    const database = await createTestDatabase();
    const onUrl = await startServiceProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: "2",
      LOG_LEVEL: "info",
      BOOTSTRAP: "false",
    });
    try {
      await onUrl.waitFor(listening(2), 30_000);
      expect((await fetch(`${onUrl.url}/readyz`)).status).toBe(200);
      expect(onUrl.output()).not.toMatch(/embedded PostgreSQL/);
      expect(onUrl.output()).toMatch(/"workers":2,"msg":"workers started"/);
    } finally {
      expect(await onUrl.stop()).toBe(0);
      await database.drop();
    }
  }, 60_000);
});

describe("workers behind the primary's relay (WORKER_CONNECTIONS=relay)", () => {
  it("serves through the relay, as where the port cannot be shared", async () => {
    const database = await createTestDatabase();
    const relayed = await startServiceProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: "2",
      WORKER_CONNECTIONS: "relay",
      LOG_LEVEL: "info",
      BOOTSTRAP: "false",
    });
    try {
      await relayed.waitFor(listening(2), 30_000);
      const lines = relayed.output().match(/.*"msg":"listening".*/g) ?? [];
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toContain('"connections":"relayed"');
      // Separate connections at once: the relay gives each to the worker serving the fewest.
      const statuses = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const response = await request(`${relayed.url}/readyz`, { reset: true });
          await response.body.dump();
          return response.statusCode;
        }),
      );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      expect(await relayed.stop()).toBe(0);
      await database.drop();
    }
  }, 60_000);
});

describe("a first worker that cannot start", () => {
  it("makes the primary say why on stderr and exit 1", () => {
    const result = spawnSync(process.execPath, ["test/fixtures/service-whose-first-worker-throws.mjs"], {
      env: { ...process.env, DATA_DIR: dataDir, WEB_CONCURRENCY: "2", PORT: "0" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Error: worker 1 cannot start, as the test asked\n\s+at /);
  });
});

describe("a port that is taken", () => {
  it("makes the primary say so and exit 1, with its database stopped", async () => {
    const database = await createTestDatabase();
    const taken = net.createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    try {
      const result = spawnSync(process.execPath, ["dist/service/main.js"], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          WEB_CONCURRENCY: "2",
          BOOTSTRAP: "false",
          HOST: "127.0.0.1",
          PORT: String((taken.address() as net.AddressInfo).port),
        },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/"code":"EADDRINUSE"[^\n]*"msg":"start failed"/);
    } finally {
      taken.close();
      await database.drop();
    }
  }, 60_000);
});
