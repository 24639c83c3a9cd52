import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReceiptImage } from "../../fakes/receipt-images.js";
import { createBranch } from "../../src/admin/businesses.js";
import { bankName } from "../../src/banks/catalogue.js";
import type { BankCode } from "../../src/banks/codes.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../src/db/embedded.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { openOrm } from "../../src/db/orm.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { freePort } from "../../src/free-port.js";
import type { SimMode, Simulator } from "../../src/simulator/server.js";
import { createKey, createTenant, type Tenant } from "../support/api.js";
import type { TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { type Banks, boaScreen, firstExample, referenceBody, startBanks } from "../support/simulator.js";
import { postMultipart } from "../support/uploads.js";
import { WAIT_MS, waitFor } from "../support/wait.js";

// Faults around a real service process: banks misbehaving, its database restarting under it, and a
// SIGTERM in the middle of load. Nothing may be half-written, counted or left running.

const UNAVAILABLE = "The service is temporarily unavailable. Please try again later.";
/** BANK_<CODE>_TIMEOUT_MS of the failing banks. */
const ATTEMPT_TIMEOUT_MS = 2_500;
/** Bank answers over this are refused (BANK_MAX_RESPONSE_BYTES). */
const SIZE_CAP = 64 * 1024;
const FAULT_BANKS = ["boa", "zemen", "mpesa"] as const satisfies readonly BankCode[];

let dataDir: string;
let port: number;
let pg: EmbeddedDatabase;
let db: TestDatabase;
let sim: Simulator;
let banks: Banks;
let service: RunningServiceProcess;
beforeAll(async () => {
  // A PostgreSQL of our own on a fixed port, so it can be stopped and started again under the same URL.
  dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-faults-"));
  port = await freePort();
  pg = await startEmbeddedPostgres({ dataDir, port });
  const orm = await openOrm({ clientUrl: pg.url, poolMax: 5 });
  db = { url: pg.url, orm, drop: () => orm.close(true) };
  banks = await startBanks();
  sim = banks.sim;
  const fast = Object.fromEntries(
    FAULT_BANKS.flatMap((code) => [
      // Far above a loopback answer on a loaded machine: only the "slow" fault may meet it, so the attempts
      // counted are the retry policy's, never a timeout's.
      [`BANK_${code.toUpperCase()}_TIMEOUT_MS`, String(ATTEMPT_TIMEOUT_MS)],
      [`BANK_${code.toUpperCase()}_RETRIES`, "1"],
    ]),
  );
  service = await startService({
    databaseUrl: pg.url,
    bankOverrides: sim.overrides,
    env: {
      ...fast,
      // The database-restart case holds requests at telebirr past the restart, without retries.
      BANK_TELEBIRR_TIMEOUT_MS: "10000",
      BANK_TELEBIRR_RETRIES: "0",
      BANK_MAX_RESPONSE_BYTES: String(SIZE_CAP),
      // Six faults in a row per bank: the circuit breaker (its own tests in test/metrics) must stay closed.
      BANK_BREAKER_FAILURES: "100",
    },
  });
});
afterAll(async () => {
  const code = await service?.stop();
  await sim?.close();
  await db?.drop();
  await pg?.stop();
  await rm(dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

async function usage(tenant: Pick<Tenant, "businessId">): Promise<number> {
  const row = await db.orm.em
    .fork()
    .findOne(QuotaUsageSchema, { business: tenant.businessId, month: quotaMonth(new Date()) });
  return row?.count ?? 0;
}

describe("a bank failing", () => {
  // Retries are for what may clear up (timeouts, resets, 5xx); a redirect, garbage or a huge body is final.
  const faults: [string, SimMode, number, string, number][] = [
    ["slow past its timeout", { kind: "slow", delayMs: 3 * ATTEMPT_TIMEOUT_MS }, 503, "is not responding", 2],
    ["answering 5xx", { kind: "error", status: 502 }, 503, "is not responding", 2],
    ["resetting the connection", { kind: "reset" }, 503, "is not responding", 2],
    ["answering garbage", { kind: "garbage" }, 502, "sent an answer that could not be read", 1],
    [
      "answering more than the size cap",
      { kind: "oversize", bytes: 4 * SIZE_CAP },
      503,
      "is not responding",
      1,
    ],
    [
      "redirecting",
      { kind: "redirect", location: "http://127.0.0.1:9/elsewhere" },
      503,
      "is not responding",
      1,
    ],
  ];

  it.concurrent.each(FAULT_BANKS)(
    "%s: every fault gives its 5xx JSON, after the allowed attempts, consuming and recording nothing",
    async (code) => {
      const tenant = await createTenant(db, { name: `faults ${code}` });
      const body = referenceBody(code, firstExample(code));
      const name = bankName(code);
      for (const [fault, mode, status, text, attempts] of faults) {
        sim.setMode(code, mode);
        const before = sim.requestCount(code);
        const response = await service.request("POST", "/verify", { key: tenant.key, json: body });
        expect({ fault, status: response.status, body: response.body }).toEqual({
          fault,
          status,
          body: { message: `${name} ${text}. Please try again later.` },
        });
        expect({ fault, attempts: sim.requestCount(code) - before }).toEqual({ fault, attempts });
      }
      expect(await usage(tenant)).toBe(0);
      expect(await db.orm.em.fork().count(VerificationSchema, { branch: tenant.branchId })).toBe(0);

      // Nothing the faults left behind stands in the way of the receipt once the bank is back.
      sim.setMode(code, { kind: "normal" });
      const confirmed = await service.request("POST", "/verify", { key: tenant.key, json: body });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.success).toBe(true);
      expect(await usage(tenant)).toBe(1);
    },
  );
});

describe("the database restarting while requests are in flight", () => {
  it("answers 503, recovers by itself and leaves no half-written record", async () => {
    const owner = await createTenant(db, { name: "restart", quota: 1_000 });
    // The same receipt in 23 branches: 23 distinct verifications of one business.
    const keys = [owner.key];
    for (let i = 1; i < 23; i++) {
      const branch = await createBranch(db.orm.em.fork(), owner.businessId, `Branch ${i}`);
      keys.push(await createKey(db, branch.id, "cashier"));
    }
    const body = referenceBody("telebirr", firstExample("telebirr"));
    const verify = async (key: string) => {
      const { status, body: answer } = await service.request("POST", "/verify", { key, json: body });
      return { status, body: answer };
    };

    // 20 requests in flight, waiting for the bank (which holds its answer), when the database stops.
    const held = banks.hold("telebirr");
    const before = sim.requestCount("telebirr");
    const inFlight = keys.slice(0, 20).map(verify);
    // Identical lookups in flight share one bank request, so the bank sees the first; the rest join it or,
    // if the database is gone before their checks, fail those: what is asserted below holds either way.
    await until(() => sim.requestCount("telebirr") > before);
    await pg.stop();
    held.release();

    const whileDown = await verify(keys[20] ?? "");
    expect(whileDown).toEqual({ status: 503, body: { message: UNAVAILABLE } });
    const notReady = await service.request("GET", "/readyz");
    expect(notReady.status).toBe(503);
    const answers = await Promise.all(inFlight);
    expect(answers).toEqual(Array(20).fill({ status: 503, body: { message: UNAVAILABLE } }));
    expect(await service.request("GET", "/healthz")).toMatchObject({ status: 200 });

    pg = await startEmbeddedPostgres({ dataDir, port });
    await until(async () => (await service.request("GET", "/readyz")).status === 200);
    const later = await verify(keys[21] ?? "");
    expect(later.status).toBe(200);
    expect(later.body.success).toBe(true);
    expect((await verify(keys[22] ?? "")).body.success).toBe(true);

    // Only the two later verifications exist, complete, and each took exactly one unit.
    const rows = await db.orm.em
      .fork()
      .find(VerificationSchema, { branch: { business: owner.businessId } }, { orderBy: { id: "asc" } });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        bank: "telebirr",
        transactionNumber: firstExample("telebirr").reference,
        success: true,
        exists: true,
        status: "completed",
        amount: firstExample("telebirr").receipt.amount,
        verificationMethod: "official",
        sourceType: "api",
      });
      expect(row.bankAnswer).toMatchObject({ reference: firstExample("telebirr").reference });
    }
    expect(await usage(owner)).toBe(rows.length);
  });
});

describe("SIGTERM during load", () => {
  it("stops the embedded database and the OCR pool cleanly, leaving no upload behind", async () => {
    const serviceDir = await mkdtemp(path.join(tmpdir(), "birrcheck-sigterm-"));
    const loaded = await startService({
      bankOverrides: sim.overrides,
      env: {
        DATA_DIR: serviceDir,
        BOOTSTRAP: "true",
        SERVER_OCR: "true",
        BANK_TELEBIRR_RETRIES: "0",
        // The drain is tested, not the deadline: reading the photo on a loaded machine may take many seconds.
        VERIFY_DEADLINE_MS: "90000",
      },
    });
    try {
      const key = (await loaded.waitFor(/^\s+(chk_[0-9A-Za-z]{43})$/m, 10_000))[1] ?? "";
      const postmaster = path.join(serviceDir, "postgres", "postmaster.pid");
      const [pid, , , pgPort] = (await readFile(postmaster, "utf8")).split("\n").map(Number);

      // Both banks hold their answers until the service has begun to drain: every request is in flight then.
      const heldDashen = banks.hold("dashen");
      const heldBoa = banks.hold("boa");
      const before = sim.requestCount("dashen");
      const image = await renderReceiptImage(boaScreen(), { width: 720, fontSize: 22 });
      const ocrRequest = postMultipart(loaded.url, "/verify", {
        key,
        fields: { account_number: firstExample("boa").target.account ?? "" },
        files: [{ field: "receipt_file", bytes: image, name: "receipt.png", type: "image/png" }],
      }).then(
        (response) => (response.status === 200 ? 200 : `${response.status} ${JSON.stringify(response.body)}`),
        (error: unknown) => String(error),
      );
      const load = Array.from({ length: 20 }, (_, i) =>
        loaded
          .request("POST", "/verify", {
            key,
            json: { bank: "dashen", transaction_number: `387ETAP${String(i).padStart(5, "0")}00WK` },
          })
          .then(
            (response) => response.status,
            (error: unknown) => String(error),
          ),
      );
      // All 20 wait at the bank, and the image, read, is on disk in its request's upload folder while its
      // lookup waits at BOA.
      let folders: string[] = [];
      await until(async () => {
        folders = uploadFolders(loaded.pid);
        return (
          sim.requestCount("dashen") - before === 20 &&
          sim.requestCount("boa") > 0 &&
          (await filesIn(folders)).length > 0
        );
      });
      const stopped = loaded.stop(60_000);
      await loaded.waitFor(/draining/, WAIT_MS);
      heldDashen.release();
      heldBoa.release();
      const code = await stopped;

      expect(code).toBe(0);
      // In-flight requests were answered before the process ended.
      expect(await ocrRequest).toBe(200);
      expect(await Promise.all(load)).toEqual(Array(20).fill(404));
      expect(await exists(postmaster)).toBe(false);
      expect(alive(pid ?? 0)).toBe(false);
      expect(await accepts(pgPort ?? 0)).toBe(false);
      expect(await filesIn(folders)).toEqual([]);
    } finally {
      await loaded.stop();
      await rm(serviceDir, { recursive: true, force: true });
    }
  });
});

// --- helpers ---

/** The upload folders (api/middleware/multipart.ts, one per process) of the service and its workers. */
function uploadFolders(pid: number): string[] {
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  return [pid, ...children].map((owner) => path.join(tmpdir(), "birrcheck-uploads", String(owner)));
}

async function filesIn(folders: readonly string[]): Promise<string[]> {
  const lists = await Promise.all(folders.map((folder) => readdir(folder).catch(() => [])));
  return lists.flat();
}

const until = (check: () => boolean | Promise<boolean>) => waitFor(check, "the faults' set-up");

const exists = (file: string) =>
  readFile(file).then(
    () => true,
    () => false,
  );

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function accepts(portNumber: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(portNumber, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
