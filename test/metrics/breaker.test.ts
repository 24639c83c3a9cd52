import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import { VerificationSchema } from "../../src/db/entities/index.js";
import { CircuitOpenError, createBankBreakers } from "../../src/engine/circuit-breaker.js";
import { createTenant, type Tenant } from "../support/api.js";
import { firstExample, referenceBody } from "../support/simulator.js";
import { type MetricsApi, sandboxKey, startMetricsApi } from "./harness.js";

const FAILURES = 3;
const COOLDOWN_MS = 30_000;
/** The breakers' clock: the cooldown passes when the test says so, however long the requests take. */
let clock = Date.now();
const ZEMEN_DOWN = { message: "Zemen Bank is not responding. Please try again later." };

let api: MetricsApi;
let tenant: Tenant;
beforeAll(async () => {
  api = await startMetricsApi({ failures: FAILURES, cooldownMs: COOLDOWN_MS, now: () => clock });
  tenant = await createTenant(api.db, { quota: 100 });
});
afterAll(async () => {
  await api?.close();
});

interface Answer {
  status: number;
  body: { message?: string; success?: boolean };
}

async function verifyZemen(key = tenant.key): Promise<Answer> {
  const response = await fetch(`${api.url}/api/v1/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(referenceBody("zemen", firstExample("zemen"))),
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

interface Readiness {
  status: number;
  body: { status: string; banks: Record<string, string> };
}

async function readyz(): Promise<Readiness> {
  const response = await fetch(`${api.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Readiness["body"] };
}

describe("a bank's circuit breaker", () => {
  it("opens after repeated failures, answers 503 without asking the bank, probes after the cooldown", async () => {
    expect((await readyz()).body).toMatchObject({ status: "ok", banks: { zemen: "closed", cbe: "closed" } });
    api.sim.setMode("zemen", { kind: "error", status: 500 });
    for (let i = 0; i < FAILURES; i++) {
      const before = api.sim.requestCount("zemen");
      expect(await verifyZemen()).toEqual({ status: 503, body: ZEMEN_DOWN });
      expect(api.sim.requestCount("zemen")).toBe(before + 1);
    }

    // Open: the same answer as an outage, at once (no bank request to wait for), no quota and no record.
    const before = api.sim.requestCount("zemen");
    expect(await verifyZemen()).toEqual({ status: 503, body: ZEMEN_DOWN });
    expect(api.sim.requestCount("zemen")).toBe(before);
    expect(await api.db.orm.em.fork().count(VerificationSchema, { branch: tenant.branchId })).toBe(0);
    const ready = await readyz();
    expect(ready).toMatchObject({
      status: 200,
      body: { status: "ok", banks: { zemen: "open", cbe: "closed" } },
    });
    let samples = await api.scrape();
    expect(samples.value("birrcheck_bank_breaker_state", { bank: "zemen" })).toBe(2);
    expect(samples.value("birrcheck_bank_breaker_state", { bank: "cbe" })).toBe(0);
    expect(samples.value("birrcheck_bank_breaker_rejections_total", { bank: "zemen" })).toBe(1);
    expect(samples.value("birrcheck_bank_errors_total", { bank: "zemen", kind: "server_error" })).toBe(
      FAILURES,
    );

    // Sandbox lookups go to the built-in simulator and are never broken.
    const sandbox = await verifyZemen(await sandboxKey(api.db));
    expect(sandbox.status).toBe(200);
    expect(sandbox.body.success).toBe(true);

    // Open until the cooldown has passed, however long that took.
    clock += COOLDOWN_MS - 1;
    expect((await readyz()).body.banks.zemen).toBe("open");
    // After the cooldown one probe goes through; it fails, so the breaker opens again.
    clock += 1;
    expect((await readyz()).body.banks.zemen).toBe("half_open");
    expect((await api.scrape()).value("birrcheck_bank_breaker_state", { bank: "zemen" })).toBe(1);
    expect(await verifyZemen()).toEqual({ status: 503, body: ZEMEN_DOWN });
    expect(api.sim.requestCount("zemen")).toBe(before + 1);
    expect((await readyz()).body.banks.zemen).toBe("open");
    expect(await verifyZemen()).toEqual({ status: 503, body: ZEMEN_DOWN });
    expect(api.sim.requestCount("zemen")).toBe(before + 1);

    // The bank is back: after the next cooldown the probe succeeds and the breaker closes.
    api.sim.setMode("zemen", { kind: "normal" });
    clock += COOLDOWN_MS;
    const probe = await verifyZemen();
    expect(probe.status).toBe(200);
    expect(probe.body.success).toBe(true);
    expect(api.sim.requestCount("zemen")).toBe(before + 2);
    expect((await readyz()).body.banks.zemen).toBe("closed");
    samples = await api.scrape();
    expect(samples.value("birrcheck_bank_breaker_state", { bank: "zemen" })).toBe(0);
    expect(
      samples.value("birrcheck_verifications_total", {
        bank: "zemen",
        outcome: "confirmed",
        sandbox: "false",
      }),
    ).toBe(1);
    expect(
      samples.value("birrcheck_verifications_total", {
        bank: "zemen",
        outcome: "confirmed",
        sandbox: "true",
      }),
    ).toBe(1);
  });
});

describe("createBankBreakers", () => {
  const down = new BankUnavailableError("cbe", "timeout");

  it("lets exactly one probe through while half-open", () => {
    let clock = 0;
    const breakers = createBankBreakers({ failures: 2, cooldownMs: 1_000 }, () => clock);
    breakers.failed("cbe", down);
    expect(breakers.state("cbe")).toBe("closed");
    breakers.failed("cbe", new ReceiptFormatError("cbe", "unreadable"));
    expect(breakers.state("cbe")).toBe("open");
    expect(() => breakers.admit("cbe")).toThrow(CircuitOpenError);
    expect(() => breakers.admit("telebirr")).not.toThrow();
    clock = 1_000;
    expect(breakers.state("cbe")).toBe("half_open");
    breakers.admit("cbe");
    expect(() => breakers.admit("cbe")).toThrow(CircuitOpenError);
    breakers.succeeded("cbe");
    expect(breakers.state("cbe")).toBe("closed");
    breakers.admit("cbe");
  });

  it("resets the count on a success and ignores errors that are not the bank's", () => {
    const breakers = createBankBreakers({ failures: 2, cooldownMs: 1_000 }, () => 0);
    breakers.failed("cbe", down);
    breakers.succeeded("cbe");
    breakers.failed("cbe", down);
    breakers.failed("cbe", new Error("a bug"));
    expect(breakers.state("cbe")).toBe("closed");
    breakers.failed("cbe", down);
    expect(breakers.state("cbe")).toBe("open");
  });

  it("names the last failure in the refusal, which renders like an outage", () => {
    const breakers = createBankBreakers({ failures: 1, cooldownMs: 1_000 }, () => 0);
    breakers.failed("boa", new BankUnavailableError("boa", "network"));
    try {
      breakers.admit("boa");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BankUnavailableError);
      expect(error).toMatchObject({ bank: "boa", reason: "network", code: "bank_unavailable" });
    }
  });
});
