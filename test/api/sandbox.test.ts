import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { QuotaUsageSchema } from "../../src/db/entities/index.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { firstExample, referenceBody } from "../support/simulator.js";

// No BANK_ORIGIN_OVERRIDES here: a sandbox key needs no configuration at all.
let api: TestApi;
let live: Tenant;
let sandboxKey: string;
beforeAll(async () => {
  api = await startTestApi();
  live = await createTenant(api.db, { quota: 0 });
  sandboxKey = (
    await createApiKey(api.db.orm.em.fork(), live.branchId, "cashier", { test: true, label: "Sandbox" })
  ).key;
});
afterAll(() => api.close());

describe("sandbox keys", () => {
  it.each(BANK_CODES)("verify the documented %s example against the built-in simulator", async (code) => {
    const response = await api.request("POST", "/verify", {
      key: sandboxKey,
      json: referenceBody(code, firstExample(code)),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, duplicate: false, data: { bank: code } });
  });

  it("use no quota and are marked as test in history", async () => {
    expect(await api.db.orm.em.fork().count(QuotaUsageSchema, { business: live.businessId })).toBe(0);
    const { verifications } = (await api.request("GET", "/verifications", { key: sandboxKey })).body;
    expect(verifications.length).toBe(BANK_CODES.length);
    expect(verifications.every((v: { source: { type: string } }) => v.source.type === "test")).toBe(true);
  });

  it("keep sandbox receipts apart from real ones", async () => {
    const again = await api.request("POST", "/verify", {
      key: sandboxKey,
      json: referenceBody("telebirr", firstExample("telebirr")),
    });
    expect(again.body.duplicate).toBe(true);
    // The live key of the same branch reaches the real banks (unreachable here), not the sandbox answer.
    const real = await api.request("POST", "/verify", {
      key: live.key,
      json: referenceBody("telebirr", firstExample("telebirr")),
    });
    expect(real.status).toBe(402);
  });
});
