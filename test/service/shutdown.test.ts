import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BankCode } from "../../src/banks/codes.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { createTenant, type Tenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { startService } from "../support/service-process.js";
import { firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";

// Issue 17 item 8: SIGTERM with slow lookups in flight. Every request gets its answer (a bank answering inside
// the deadline: 200; a bank that hangs: the 503 at the deadline) or its connection ends with nothing recorded
// for it; quota equals the recorded verifications.
const DEADLINE_MS = 3_000;
const BANKS: readonly BankCode[] = ["telebirr", "boa", "zemen"];
const TENANTS = 8;

let db: TestDatabase;
let sim: Simulator;
beforeAll(async () => {
  [db, { sim }] = await Promise.all([createTestDatabase(), startBanks()]);
});
afterAll(async () => {
  await sim?.close();
  await db?.drop();
});

interface Sent {
  tenant: Tenant;
  bank: BankCode;
  status: number | "connection ended";
  body: string;
  ms: number;
}

describe("SIGTERM with lookups in flight", () => {
  it("answers or ends every request, and records only what was answered", async () => {
    sim.setMode("telebirr", { kind: "slow", delayMs: 800 });
    // Banks answering with HTML and JSON: a fresh process's first PDF parse (loading pdf.js) would make the
    // time the answers need depend on the machine's load.
    sim.setMode("boa", { kind: "slow", delayMs: 1_200 });
    sim.setMode("zemen", { kind: "hang" });
    const service = await startService({
      databaseUrl: db.url,
      bankOverrides: sim.overrides,
      env: { VERIFY_DEADLINE_MS: String(DEADLINE_MS), API_RATE_LIMIT: "0" },
    });
    const tenants = await Promise.all(Array.from({ length: TENANTS }, () => createTenant(db)));

    const requests = tenants.flatMap((tenant) =>
      BANKS.map(async (bank): Promise<Sent> => {
        const started = performance.now();
        try {
          const response = await fetch(`${service.url}/api/v1/verify`, {
            method: "POST",
            headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
            body: JSON.stringify(referenceBody(bank, firstExample(bank))),
          });
          const body = await response.text();
          return { tenant, bank, status: response.status, body, ms: performance.now() - started };
        } catch {
          return { tenant, bank, status: "connection ended", body: "", ms: performance.now() - started };
        }
      }),
    );
    // Every lookup has reached its bank before the signal.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await service.stop(DEADLINE_MS + 10_000)).toBe(0);
    const sent = await Promise.all(requests);

    for (const request of sent) {
      expect(request.ms).toBeLessThan(DEADLINE_MS + 1_000);
      expect(request.status, `${request.bank}: ${request.body}`).toBe(request.bank === "zemen" ? 503 : 200);
    }
    const em = db.orm.em.fork();
    for (const tenant of tenants) {
      const rows = await em.find(VerificationSchema, { branch: tenant.branchId });
      const answered = sent.filter((request) => request.tenant === tenant && request.status === 200);
      expect(rows.map((row) => row.bank).sort()).toEqual(answered.map((request) => request.bank).sort());
      const usage = await em.findOne(QuotaUsageSchema, { business: tenant.businessId });
      expect(usage?.count ?? 0).toBe(rows.length);
    }
  });
});
