import net from "node:net";
import { type SpecData, Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { openOrm } from "../../src/db/orm.js";
import { NO_RECEIPT } from "../../src/db/verification-record.js";
import { OUTCOME_MESSAGES } from "../../src/engine/types.js";
import {
  type ApiResponse,
  createKey,
  createTenant,
  startTestApi,
  type Tenant,
  type TestApi,
} from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { insertVerification } from "../support/factories.js";
import {
  type DocumentedOperation,
  type OpenApiDocument,
  operationsOf,
  responseOf,
  routesOf,
  schemaValidator,
} from "../support/openapi.js";
import {
  firstExample,
  referenceBody,
  type Simulator,
  simulatedBank,
  startBanks,
} from "../support/simulator.js";

// GET /api/v1/openapi.json against the routes themselves: the document is valid OpenAPI 3.1, names every
// route, and every response it documents is produced by a real request and matches its schema.

let sim: Simulator;
/** With the bank simulator behind it: the successes and the business failures. */
let api: TestApi;
/** API_RATE_LIMIT=1: a key's second request in a minute is refused. */
let limited: TestApi;
/** Its api_keys table gone: every authenticated request fails unexpectedly (500). */
let broken: TestApi;
/** Its database unreachable (the connection to PostgreSQL is cut): 503. */
let unreachable: TestApi;
let cutDatabase: () => void;
let tenant: Tenant;
let document: OpenApiDocument;
let validate: ReturnType<typeof schemaValidator>;

beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  [api, limited, broken] = await Promise.all([
    startTestApi({ banks: started.banks }),
    startTestApi({ rateLimitPerMinute: 1 }),
    startTestApi(),
  ]);
  const cut = await behindCuttableProxy();
  unreachable = await startTestApi({ database: cut.database });
  cutDatabase = cut.cut;
  tenant = await createTenant(api.db, { quota: 1000 });
  const response = await api.request("GET", "/openapi.json");
  expect(response.status).toBe(200);
  document = response.body;
  validate = schemaValidator(document);
});

afterAll(async () => {
  await Promise.all([api, limited, broken, unreachable].map((a) => a?.close()));
  await sim?.close();
});

describe("the document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as SpecData);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("names every route of /api/v1 and nothing else", () => {
    const [server] = document.servers;
    expect(server?.url).toBe("/api/v1");
    const documented = operationsOf(document).map((op) => `${op.method.toUpperCase()} /api/v1${op.path}`);
    const served = routesOf(api.app).filter((route) => route.split(" ")[1]?.startsWith("/api/v1/"));
    expect(served.length).toBeGreaterThan(10);
    expect(documented.sort()).toEqual(served);
  });

  it("shows the contract's bank codes, error shapes and security", () => {
    const schemas = document.components.schemas as Record<string, { enum?: string[] }>;
    expect(schemas.BankCode?.enum).toEqual([...BANK_CODES]);
    const verify = operationsOf(document).find((op) => op.name === "POST /verify");
    expect(Object.keys(verify?.operation.responses ?? {}).sort()).toEqual(
      ["200", "400", "401", "402", "404", "413", "422", "429", "500", "502", "503"].sort(),
    );
    expect(JSON.stringify(document)).toContain('"scheme":"bearer"');
  });

  it("marks the CSV export, and only it, as an extension of the contract", () => {
    const extensions = operationsOf(document)
      .filter(
        (op) => (op.operation as { "x-birrcheck-extension"?: unknown })["x-birrcheck-extension"] === true,
      )
      .map((op) => op.name);
    expect(extensions).toEqual(["GET /verifications/export"]);
    const exported = operationsOf(document).find((op) => op.name === "GET /verifications/export");
    expect(Object.keys(exported?.operation.responses ?? {}).sort()).toEqual(
      ["200", "401", "403", "422", "429", "500", "503"].sort(),
    );
    expect(
      Object.keys(responseOf(document, exported?.operation ?? { responses: {} }, 200).content ?? {}),
    ).toEqual(["text/csv"]);
    expect(exported?.operation.parameters?.map((p) => `${p.in} ${p.name}`).sort()).toEqual(
      ["query format", "query limit", "query period", "query success"].sort(),
    );
  });

  it("has examples that match their own schemas", () => {
    const media = operationsOf(document).flatMap((op) => [
      ...Object.values(op.operation.requestBody?.content ?? {}),
      ...Object.keys(op.operation.responses).flatMap((status) =>
        Object.values(responseOf(document, op.operation, Number(status)).content ?? {}),
      ),
    ]);
    const examples = media.flatMap((m) =>
      Object.values(m.examples ?? {}).map((e) => ({ m, value: e.value })),
    );
    expect(examples.length).toBeGreaterThan(20);
    for (const { m, value } of examples) expect(validate(m.schema, value), JSON.stringify(value)).toEqual([]);
  });
});

describe("the examples for every bank", () => {
  const requestExamples = (name: string) => {
    const op = operationsOf(document).find((o) => o.name === name);
    return Object.entries(op?.operation.requestBody?.content["application/json"]?.examples ?? {});
  };

  it("cover each bank by transaction number", () => {
    const banks = requestExamples("POST /verify").map(([, e]) => (e.value as { bank?: string }).bank);
    expect(new Set(banks.filter(Boolean))).toEqual(new Set(BANK_CODES));
  });

  it("all succeed with a sandbox key", async () => {
    const examples = requestExamples("POST /verify");
    for (const [name, example] of examples) {
      // A branch of its own for each: a bank's link and its reference lead to the same receipt.
      const { branchId } = await createTenant(api.db, { quota: 0 });
      const { key } = await createApiKey(api.db.orm.em.fork(), branchId, "cashier", {
        test: true,
        label: name,
      });
      const response = await api.request("POST", "/verify", { key, json: example.value });
      expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(response.body.success, name).toBe(true);
    }
  });

  it("share links are read as their bank's", async () => {
    const examples = requestExamples("POST /verify/parse-url");
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const [bank, example] of examples) {
      const response = await api.request("POST", "/verify/parse-url", {
        key: tenant.key,
        json: example.value,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.bank).toBe(bank);
    }
  });
});

// --- every documented response, produced by a real request ---

interface Call {
  path?: string;
  json?: unknown;
  raw?: string;
  key?: string | null;
  on?: () => TestApi;
}

/** One request per operation that passes validation, for the statuses any request can meet. */
const plainCalls: Record<string, Call> = {
  "POST /verify": { json: referenceBody("telebirr", firstExample("telebirr")) },
  "POST /verify/parse-url": {
    json: { receipt_url: "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED" },
  },
  "POST /verify/parse-receipt": { json: { receipt_text: "Transaction ID: FT26140P01YB", bank: "amhara" } },
  "DELETE /verifications/bulk": { json: { ids: [1] } },
  "POST /accounts": { json: { bank: "cbe", account_number: "1000123456789", label: "Till" } },
  "PATCH /accounts/{id}": { json: { label: "Till 2" } },
};

const TOO_LARGE = JSON.stringify({ receipt_text: "x".repeat(300 * 1024) });

/** How to produce each status, per operation; statuses any operation shares are generic. */
function scenario(op: DocumentedOperation, status: number): (() => Promise<Call>) | undefined {
  const specific = SPECIFIC[op.name]?.[status];
  if (specific) return specific;
  const plain = plainCalls[op.name] ?? {};
  switch (status) {
    case 400:
      return async () => ({ ...plain, json: undefined, raw: "{" });
    case 401:
      return async () => ({ ...plain, key: null });
    case 413:
      return async () => ({ ...plain, json: undefined, raw: TOO_LARGE });
    case 429:
      return async () => {
        const { key } = await createTenant(limited.db);
        await send(op, { ...plain, key, on: () => limited });
        return { ...plain, key, on: () => limited };
      };
    case 500:
      return async () => ({ ...plain, key: brokenKey, on: () => broken });
    case 503:
      return async () => ({ ...plain, key: unreachableKey, on: () => unreachable });
    default:
      return undefined;
  }
}

let brokenKey: string;
let unreachableKey: string;
beforeAll(async () => {
  brokenKey = (await createTenant(broken.db)).key;
  await broken.db.orm.em.fork().execute('alter table "api_keys" rename to "api_keys_gone"');
  unreachableKey = (await createTenant(unreachable.db)).key;
  cutDatabase();
});

const SPECIFIC: Record<string, Record<number, () => Promise<Call>>> = {
  "POST /verify": {
    200: async () => ({ json: referenceBody("mpesa", firstExample("mpesa")) }),
    402: async () => ({
      json: plainCalls["POST /verify"]?.json,
      key: (await createTenant(api.db, { quota: 0 })).key,
    }),
    404: async () => {
      const { notFound } = simulatedBank("telebirr");
      return { json: { bank: "telebirr", transaction_number: notFound.transactionNumber } };
    },
    422: async () => ({ json: {} }),
    502: async () => {
      sim.setMode("boa", { kind: "garbage" });
      return { json: referenceBody("boa", firstExample("boa")) };
    },
  },
  "POST /verify/parse-url": {
    200: async () => plainCalls["POST /verify/parse-url"] ?? {},
    422: async () => ({ json: {} }),
  },
  "POST /verify/parse-receipt": {
    200: async () => plainCalls["POST /verify/parse-receipt"] ?? {},
    422: async () => ({ json: {} }),
  },
  "GET /verifications": {
    200: async () => {
      // A found and a not-found record, so both shapes of a history item are checked.
      await insertVerification(api.db, tenant.branchId);
      await insertVerification(api.db, tenant.branchId, notFoundColumns);
      return {};
    },
    422: async () => ({ path: "/verifications?limit=0" }),
  },
  "GET /verifications/{id}": {
    200: async () => ({
      path: `/verifications/${(await insertVerification(api.db, tenant.branchId, notFoundColumns)).id}`,
    }),
    404: async () => ({ path: "/verifications/999999" }),
  },
  "DELETE /verifications/{id}": {
    200: async () => ({ path: `/verifications/${(await insertVerification(api.db, tenant.branchId)).id}` }),
    404: async () => ({ path: "/verifications/999999" }),
  },
  "GET /verifications/export": {
    200: async () => {
      await insertVerification(api.db, tenant.branchId, notFoundColumns);
      return { path: "/verifications/export?format=csv&period=30d" };
    },
    403: async () => ({ key: await createKey(api.db, tenant.branchId, "cashier") }),
    422: async () => ({ path: "/verifications/export?format=xml" }),
  },
  "DELETE /verifications/bulk": {
    200: async () => ({ json: { ids: [(await insertVerification(api.db, tenant.branchId)).id, 999999] } }),
    403: async () => ({ json: { ids: [1] }, key: await createKey(api.db, tenant.branchId, "cashier") }),
    422: async () => ({ json: { ids: [] } }),
  },
  "GET /accounts": { 200: async () => ({}) },
  "POST /accounts": {
    201: async () => plainCalls["POST /accounts"] ?? {},
    422: async () => ({ json: {} }),
  },
  "PATCH /accounts/{id}": {
    200: async () => ({ path: `/accounts/${await newAccount()}`, json: { is_primary: true } }),
    404: async () => ({ path: "/accounts/999999", json: { label: "x" } }),
    422: async () => ({ path: `/accounts/${await newAccount()}`, json: { is_primary: "yes" } }),
  },
  "DELETE /accounts/{id}": {
    200: async () => ({ path: `/accounts/${await newAccount()}` }),
    404: async () => ({ path: "/accounts/999999" }),
  },
  "GET /banks": { 200: async () => ({ key: null }) },
  "GET /openapi.json": { 200: async () => ({ key: null }) },
};

const notFoundColumns = {
  success: false,
  exists: false,
  message: OUTCOME_MESSAGES.not_found,
  ...NO_RECEIPT,
};

async function newAccount(): Promise<number> {
  const response = await api.request("POST", "/accounts", {
    key: tenant.key,
    json: { bank: "boa", account_number: String(Date.now()), label: "Counter" },
  });
  expect(response.status).toBe(201);
  return response.body.account.id;
}

function send(op: DocumentedOperation, call: Call): Promise<ApiResponse> {
  const target = call.on?.() ?? api;
  const key = call.key === null ? undefined : (call.key ?? tenant.key);
  const path = call.path ?? op.path.replace("{id}", "1");
  return target.request(op.method.toUpperCase(), path, {
    ...(key ? { key } : {}),
    ...(call.json !== undefined ? { json: call.json } : {}),
    ...(call.raw !== undefined ? { raw: call.raw, headers: { "content-type": "application/json" } } : {}),
  });
}

describe("every documented response", () => {
  it("has a way to produce it here", () => {
    const missing = operationsOf(document).flatMap((op) =>
      Object.keys(op.operation.responses)
        .filter((status) => !scenario(op, Number(status)))
        .map((status) => `${op.name} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it("is what the route answers, in the documented shape", async () => {
    const checked: string[] = [];
    for (const op of operationsOf(document)) {
      for (const status of Object.keys(op.operation.responses).map(Number)) {
        const make = scenario(op, status);
        if (!make) continue;
        const response = await send(op, await make());
        sim.setMode("boa", { kind: "normal" });
        const label = `${op.name} → ${status}: ${JSON.stringify(response.body).slice(0, 300)}`;
        expect(response.status, label).toBe(status);
        const documented = responseOf(document, op.operation, status);
        // One media type per response: JSON everywhere but the CSV export's 200.
        const [mediaType, media] = Object.entries(documented.content ?? {})[0] ?? [];
        expect(response.headers.get("content-type"), label).toMatch(new RegExp(`^${mediaType}\\b`));
        const schema = media?.schema;
        expect(schema, label).toBeDefined();
        expect(validate(schema ?? {}, response.body), label).toEqual([]);
        for (const header of Object.keys(documented.headers ?? {})) {
          expect(response.headers.get(header), `${label} header ${header}`).not.toBeNull();
        }
        checked.push(`${op.name} ${status}`);
      }
    }
    expect(checked.length).toBeGreaterThan(80);
  });

  it("would catch a response the document does not describe", () => {
    const op = operationsOf(document).find((o) => o.name === "GET /accounts");
    const schema = op && responseOf(document, op.operation, 200).content?.["application/json"]?.schema;
    expect(validate(schema ?? {}, { accounts: [{ id: 1 }] })).not.toEqual([]);
    expect(validate(schema ?? {}, { accounts: [], extra: true })).not.toEqual([]);
  });
});

/**
 * A database reached through a loopback proxy that can be cut: after `cut()` open connections drop and
 * new ones are refused, as when PostgreSQL goes away.
 */
async function behindCuttableProxy(): Promise<{ database: TestDatabase; cut: () => void }> {
  const real = await createTestDatabase();
  const target = new URL(real.url);
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(real.url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String((proxy.address() as net.AddressInfo).port);
  // The proxy is TCP: a Unix socket named in the URL (libpq's ?host=) would go around it.
  proxied.searchParams.delete("host");
  const orm = await openOrm({ clientUrl: proxied.toString(), poolMax: 2 });
  const database: TestDatabase = {
    url: proxied.toString(),
    orm,
    drop: async () => {
      await orm.close(true).catch(() => undefined);
      await real.drop();
    },
  };
  return {
    database,
    cut: () => {
      proxy.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}
