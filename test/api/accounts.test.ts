import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SavedAccountSchema } from "../../src/db/entities/index.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db);
  other = await createTenant(api.db, { name: "Other business" });
});
afterAll(() => api.close());

const create = (key: string, json: unknown) => api.request("POST", "/accounts", { key, json });
const invalid = (errors: Record<string, string[]>) => ({ message: "The given data was invalid.", errors });

describe("POST /accounts", () => {
  it("saves an account and derives its last four digits", async () => {
    const response = await create(tenant.key, {
      bank: "cbe",
      account_number: "1000 1234-56789",
      label: "Main till",
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      account: {
        id: expect.any(Number),
        bank: "cbe",
        bank_name: "Commercial Bank of Ethiopia",
        account_number: "1000123456789",
        account_last_four: "6789",
        label: "Main till",
        is_primary: false,
      },
    });
  });

  it("requires bank, account number and label", async () => {
    const response = await create(tenant.key, {});
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      invalid({
        bank: ["The bank field is required."],
        account_number: ["The account number field is required."],
        label: ["The label field is required."],
      }),
    );
  });

  it.each([
    [{ bank: "nib" }, "bank", "The selected bank is invalid."],
    [{ bank: 7 }, "bank", "The selected bank is invalid."],
    [{ account_number: "12ab34" }, "account_number", "The account number format is invalid."],
    [
      { account_number: "1".repeat(35) },
      "account_number",
      "The account number may not be greater than 34 characters.",
    ],
    [{ account_number: 1234 }, "account_number", "The account number must be a string."],
    [{ account_number: " - " }, "account_number", "The account number field is required."],
    [{ label: "" }, "label", "The label field is required."],
    [{ label: "   " }, "label", "The label field is required."],
    [{ label: "x".repeat(101) }, "label", "The label may not be greater than 100 characters."],
    [{ label: ["a"] }, "label", "The label must be a string."],
    [{ is_primary: "yes" }, "is_primary", "The is primary field must be true or false."],
  ])("rejects %j with a message for %s", async (override, field, message) => {
    const body = { bank: "boa", account_number: "12345678", label: "Till", ...override };
    const response = await create(tenant.key, body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid({ [field]: [message] }));
  });

  it("keeps one primary account per bank", async () => {
    const first = await create(tenant.key, {
      bank: "dashen",
      account_number: "111",
      label: "A",
      is_primary: true,
    });
    const second = await create(tenant.key, {
      bank: "dashen",
      account_number: "222",
      label: "B",
      is_primary: true,
    });
    const other = await create(tenant.key, {
      bank: "awash",
      account_number: "333",
      label: "C",
      is_primary: true,
    });
    const { accounts } = (await api.request("GET", "/accounts", { key: tenant.key })).body;
    const byId = new Map(accounts.map((a: { id: number }) => [a.id, a]));
    expect(byId.get(first.body.account.id)).toMatchObject({ is_primary: false });
    expect(byId.get(second.body.account.id)).toMatchObject({ is_primary: true });
    expect(byId.get(other.body.account.id)).toMatchObject({ is_primary: true });
  });

  it("answers 401 without a key", async () => {
    const response = await api.request("POST", "/accounts", {
      json: { bank: "cbe", account_number: "1", label: "x" },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: "Unauthenticated." });
  });
});

describe("GET /accounts", () => {
  it("lists only the caller's branch", async () => {
    await create(other.key, { bank: "cbe", account_number: "999999999", label: "Theirs" });
    const { accounts } = (await api.request("GET", "/accounts", { key: tenant.key })).body;
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts.map((a: { label: string }) => a.label)).not.toContain("Theirs");
  });
});

describe("PATCH /accounts/{id}", () => {
  it("updates the label and the primary flag", async () => {
    const { account } = (await create(tenant.key, { bank: "zemen", account_number: "4444", label: "Old" }))
      .body;
    const response = await api.request("PATCH", `/accounts/${account.id}`, {
      key: tenant.key,
      json: { label: "New", is_primary: true },
    });
    expect(response.status).toBe(200);
    expect(response.body.account).toMatchObject({ id: account.id, label: "New", is_primary: true });
  });

  it("refuses fields other than label and is_primary", async () => {
    const { account } = (await create(tenant.key, { bank: "zemen", account_number: "5555", label: "X" }))
      .body;
    const response = await api.request("PATCH", `/accounts/${account.id}`, {
      key: tenant.key,
      json: { account_number: "1", bank: "cbe" },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      invalid({
        account_number: ["The account number field is prohibited."],
        bank: ["The bank field is prohibited."],
      }),
    );
  });

  it("validates the label", async () => {
    const { account } = (await create(tenant.key, { bank: "zemen", account_number: "6666", label: "X" }))
      .body;
    const response = await api.request("PATCH", `/accounts/${account.id}`, {
      key: tenant.key,
      json: { label: "" },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid({ label: ["The label field is required."] }));
  });

  it("answers 404 for another branch's account and for unknown ids", async () => {
    const { account } = (await create(other.key, { bank: "cbe", account_number: "777", label: "Theirs" }))
      .body;
    for (const id of [account.id, 999999, "abc", 0, -1]) {
      const response = await api.request("PATCH", `/accounts/${id}`, {
        key: tenant.key,
        json: { label: "Mine" },
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: "Account not found." });
    }
    const stored = await api.db.orm.em.fork().findOneOrFail(SavedAccountSchema, account.id);
    expect(stored.label).toBe("Theirs");
  });

  it("keeps exactly one primary under concurrent changes", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push(
        (await create(tenant.key, { bank: "mpesa", account_number: `90${i}`, label: `M${i}` })).body.account
          .id,
      );
    }
    const responses = await Promise.all(
      ids.flatMap((id) =>
        [1, 2].map(() =>
          api.request("PATCH", `/accounts/${id}`, { key: tenant.key, json: { is_primary: true } }),
        ),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const primaries = await api.db.orm.em
      .fork()
      .count(SavedAccountSchema, { branch: tenant.branchId, bank: "mpesa", isPrimary: true });
    expect(primaries).toBe(1);
  });
});

describe("DELETE /accounts/{id}", () => {
  it("deletes an account of the branch", async () => {
    const { account } = (await create(tenant.key, { bank: "amhara", account_number: "8888", label: "Gone" }))
      .body;
    const response = await api.request("DELETE", `/accounts/${account.id}`, { key: tenant.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Account deleted." });
    const again = await api.request("DELETE", `/accounts/${account.id}`, { key: tenant.key });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "Account not found." });
  });

  it("never deletes another branch's account", async () => {
    const { account } = (await create(other.key, { bank: "amhara", account_number: "9999", label: "Theirs" }))
      .body;
    const response = await api.request("DELETE", `/accounts/${account.id}`, { key: tenant.key });
    expect(response.status).toBe(404);
    expect(await api.db.orm.em.fork().count(SavedAccountSchema, { id: account.id })).toBe(1);
  });
});
