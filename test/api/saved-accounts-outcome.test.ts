import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { firstExample, referenceBody, type Simulator, startBanks } from "../support/simulator.js";

// "Paid outside the branch's saved accounts" is the engine's verdict, so the API says what the
// bot says: an extension field of a confirmed result, only when the branch saved accounts for that bank.
let api: TestApi;
let sim: Simulator;
beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  api = await startTestApi({ banks: started.banks });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});

const example = firstExample("telebirr");
const verify = (tenant: Tenant) =>
  api.request("POST", "/verify", { key: tenant.key, json: referenceBody("telebirr", example) });
const save = (tenant: Tenant, accountNumber: string) =>
  api.request("POST", "/accounts", {
    key: tenant.key,
    json: { bank: "telebirr", account_number: accountNumber, label: "Till" },
  });

describe("a confirmed payment and the branch's saved accounts", () => {
  it("says nothing when the branch saved no account for the bank", async () => {
    const response = await verify(await createTenant(api.db));
    expect(response.body.success).toBe(true);
    expect(response.body).not.toHaveProperty("paid_outside_saved_accounts");
  });

  it("says nothing when the receiver is one of them", async () => {
    const tenant = await createTenant(api.db);
    const receiver = example.receipt.receiverAccount.replace(/\D/g, "");
    expect((await save(tenant, `2519000${receiver.slice(-4)}`)).status).toBe(201);
    const response = await verify(tenant);
    expect(response.body.success).toBe(true);
    expect(response.body).not.toHaveProperty("paid_outside_saved_accounts");
  });

  it("flags a payment to none of them", async () => {
    const tenant = await createTenant(api.db);
    expect((await save(tenant, "251900000001")).status).toBe(201);
    const response = await verify(tenant);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, paid_outside_saved_accounts: true });
  });
});
