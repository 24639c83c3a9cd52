import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { insertVerification } from "../support/factories.js";
import { firstExample, referenceBody } from "../support/simulator.js";

// docs/api.md §5 promises that a sandbox key's records and a live key's never meet: a live
// integration that polls its history must not read a test confirmation as a payment.
let api: TestApi;
let live: Tenant;
let sandboxKey: string;
let sandboxId: number;
let liveId: number;
beforeAll(async () => {
  api = await startTestApi();
  live = await createTenant(api.db, { role: "manager" });
  sandboxKey = (
    await createApiKey(api.db.orm.em.fork(), live.branchId, "manager", { test: true, label: "Sandbox" })
  ).key;
  const verified = await api.request("POST", "/verify", {
    key: sandboxKey,
    json: referenceBody("telebirr", firstExample("telebirr")),
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  sandboxId = Number(verified.body.data.verification_id);
  liveId = (await insertVerification(api.db, live.branchId)).id;
});
afterAll(() => api.close());

const ids = (body: { verifications: { id: number }[] }) => body.verifications.map((v) => v.id);

describe("sandbox and live records of one branch", () => {
  it("are listed only to their own kind of key", async () => {
    expect(ids((await api.request("GET", "/verifications", { key: live.key })).body)).toEqual([liveId]);
    const sandbox = (await api.request("GET", "/verifications", { key: sandboxKey })).body;
    expect(ids(sandbox)).toEqual([sandboxId]);
    expect(sandbox.verifications[0].source).toEqual({ type: "test", label: "Sandbox" });
  });

  it("are read one by one only by their own kind of key", async () => {
    expect((await api.request("GET", `/verifications/${sandboxId}`, { key: live.key })).status).toBe(404);
    expect((await api.request("GET", `/verifications/${liveId}`, { key: sandboxKey })).status).toBe(404);
    expect((await api.request("GET", `/verifications/${sandboxId}`, { key: sandboxKey })).status).toBe(200);
  });

  it("are exported only to their own kind of key", async () => {
    const liveCsv = (await api.request("GET", "/verifications/export", { key: live.key })).body as string;
    const sandboxCsv = (await api.request("GET", "/verifications/export", { key: sandboxKey }))
      .body as string;
    const firstCells = (csv: string) =>
      csv
        .trim()
        .split("\r\n")
        .slice(1)
        .map((line) => Number(line.split(",")[0]));
    expect(firstCells(liveCsv)).toEqual([liveId]);
    expect(firstCells(sandboxCsv)).toEqual([sandboxId]);
  });

  it("are deleted only by their own kind of key", async () => {
    const bulk = await api.request("DELETE", "/verifications/bulk", {
      key: live.key,
      json: { ids: [sandboxId] },
    });
    expect(bulk.body).toEqual({ message: "0 verifications deleted.", deleted: 0 });
    expect((await api.request("DELETE", `/verifications/${liveId}`, { key: sandboxKey })).status).toBe(404);
    expect((await api.request("DELETE", `/verifications/${sandboxId}`, { key: sandboxKey })).status).toBe(
      200,
    );
    expect(ids((await api.request("GET", "/verifications", { key: live.key })).body)).toEqual([liveId]);
  });
});
