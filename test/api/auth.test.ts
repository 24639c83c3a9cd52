import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey, revokeApiKey } from "../../src/auth/api-keys.js";
import { ApiKeySchema } from "../../src/db/entities/index.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";

let api: TestApi;
let tenant: Tenant;
beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db);
});
afterAll(() => api.close());

const UNAUTHENTICATED = { message: "Unauthenticated." };

describe("API key authentication", () => {
  it("accepts a valid bearer key", async () => {
    expect((await api.request("GET", "/accounts", { key: tenant.key })).status).toBe(200);
  });

  it.each([
    ["no header", {}],
    ["a Basic header", { authorization: "Basic dXNlcjpwYXNz" }],
    ["Bearer without a key", { authorization: "Bearer " }],
    ["a key without the chk_ prefix", { authorization: `Bearer ${"x".repeat(47)}` }],
    ["a too short key", { authorization: "Bearer chk_abc" }],
    ["an unknown well-formed key", { authorization: `Bearer ${generateApiKey()}` }],
  ])("answers 401 for %s", async (_name, headers) => {
    for (const path of ["/accounts", "/verifications", "/verifications/1"]) {
      const response = await api.request("GET", path, { headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    }
  });

  it.each([
    ["GET", "/accounts"],
    ["POST", "/accounts"],
    ["PATCH", "/accounts/1"],
    ["DELETE", "/accounts/1"],
    ["GET", "/verifications"],
    ["GET", "/verifications/1"],
    ["DELETE", "/verifications/1"],
    ["DELETE", "/verifications/bulk"],
  ])("guards %s %s", async (method, path) => {
    const response = await api.request(method, path, method === "GET" ? {} : { json: {} });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHENTICATED);
  });

  it("answers 401 for a revoked key", async () => {
    const other = await createTenant(api.db);
    const record = await api.db.orm.em.fork().findOneOrFail(ApiKeySchema, { branch: other.branchId });
    await revokeApiKey(api.db.orm.em.fork(), record.id);
    const response = await api.request("GET", "/accounts", { key: other.key });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHENTICATED);
  });

  it("records when a key was last used", async () => {
    const other = await createTenant(api.db);
    await api.request("GET", "/accounts", { key: other.key });
    const record = await api.db.orm.em.fork().findOneOrFail(ApiKeySchema, { branch: other.branchId });
    expect(record.lastUsedAt).toBeInstanceOf(Date);
  });

  it("stores only a hash and a short prefix of the key", async () => {
    const record = await api.db.orm.em.fork().findOneOrFail(ApiKeySchema, { branch: tenant.branchId });
    expect(record.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record.keyHash).not.toContain(tenant.key);
    expect(tenant.key.startsWith(record.prefix)).toBe(true);
    expect(record.prefix.length).toBeLessThan(16);
  });

  it("generates keys of chk_ and at least 32 random bytes", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^chk_[0-9A-Za-z]{43}$/);
    expect(generateApiKey(true)).toMatch(/^chk_test_[0-9A-Za-z]{43}$/);
    expect(new Set(Array.from({ length: 100 }, () => generateApiKey())).size).toBe(100);
  });
});
