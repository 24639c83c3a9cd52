import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript, startServiceProcess } from "../support/processes.js";

// `npm start` end to end: the embedded database, the first-run key, restarts and shutdown.
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-service-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("the service process on the embedded database", () => {
  let firstKey = "";

  it("starts, migrates and prints an admin key once on an empty database", async () => {
    const service = await startServiceProcess({ DATA_DIR: dataDir, DATABASE_URL: "" });
    try {
      // The key is printed just after the service starts listening.
      firstKey = (await service.waitFor(/^\s+(chk_[0-9A-Za-z]{43})$/m))[1] ?? "";
      const sandboxKey = (await service.waitFor(/^\s+export BIRRCHECK_KEY=(chk_test_\S+)$/m))[1] ?? "";
      await service.waitFor(/curl -s -X POST "\$BIRRCHECK_URL\/api\/v1\/verify"/);
      // The key is printed for the person at the terminal, never inside a JSON log line.
      const logLines = service
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"));
      expect(logLines.some((line) => line.includes(firstKey) || line.includes(sandboxKey))).toBe(false);

      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const accounts = await fetch(`${service.url}/api/v1/accounts`, {
        headers: { authorization: `Bearer ${firstKey}` },
      });
      expect(accounts.status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect(await exists(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
  });

  it("reuses the data on the next start and lets the admin CLI share the running database", async () => {
    const service = await startServiceProcess({ DATA_DIR: dataDir, DATABASE_URL: "" });
    try {
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      expect(service.output()).not.toMatch(/chk_[0-9A-Za-z]{43}/);
      const cli = await runScript(
        "src/cli/admin.ts",
        ["key:create", "--branch", "1", "--role", "cashier", "--json"],
        {
          DATA_DIR: dataDir,
          DATABASE_URL: "",
        },
      );
      expect(cli.code).toBe(0);
      expect(cli.stderr).toContain("Using the embedded database of the running service");
      const created = JSON.parse(cli.stdout);
      for (const key of [firstKey, created.key]) {
        const response = await fetch(`${service.url}/api/v1/verifications`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(response.status).toBe(200);
      }
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("refuses to start a second server on a data directory in use", async () => {
    const service = await startServiceProcess({ DATA_DIR: dataDir, DATABASE_URL: "" });
    try {
      const second = await runScript("src/main.ts", [], { DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0" });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/is in use by another process/);
    } finally {
      await service.stop();
    }
  });
});

describe("configuration errors", () => {
  it.each([
    [{ PORT: "http" }, /PORT must be a port number/],
    [{ DATABASE_URL: "mysql://localhost/db" }, /DATABASE_URL must be a postgres/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
    [{ BOOTSTRAP: "maybe" }, /BOOTSTRAP must be true or false/],
  ])("exits 1 naming the variable for %j", async (env, message) => {
    const result = await runScript("src/main.ts", [], { DATA_DIR: dataDir, ...env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  // The primary reads the configuration before it forks anything: one message, and no worker started.
  it.each([
    [{ PORT: "http" }, /PORT must be a port number/],
    [{ WEB_CONCURRENCY: "two" }, /WEB_CONCURRENCY must be a number of processes/],
    [{ WEB_CONCURRENCY: "0" }, /WEB_CONCURRENCY must be at least 1/],
  ])("exits 1 naming the variable for %j with several workers too", async (env, message) => {
    const result = await runScript("src/main.ts", [], { DATA_DIR: dataDir, WEB_CONCURRENCY: "2", ...env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.match(/Invalid configuration/g)).toHaveLength(1);
    expect(result.stdout).not.toMatch(/workers starting|embedded PostgreSQL/);
  });
});
