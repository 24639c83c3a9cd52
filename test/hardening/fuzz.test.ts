import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_CODES } from "../../src/banks/codes.js";
import { createKey, createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import {
  encodeMultipart,
  type Framing,
  fieldsObject,
  hostileString,
  hostileValue,
  pathIdSegment,
  queryString,
  type RawPart,
  rawJsonBody,
  rawMultipart,
} from "../support/arbitraries.js";
import { type Simulator, startBanks } from "../support/simulator.js";
import { leftoverUploads } from "../support/uploads.js";

/*
 * Property-based tests of every endpoint of the contract with hostile input. Whatever is sent, the answer is
 * JSON in the contract's shape: {message} or {message, errors} for a 4xx (POST /verify's not-found result
 * also), a success body when the input happens to be valid, and never a 5xx. Seeds are random on every
 * run; a failure prints the seed and path that replay it (FUZZ_SEED, FUZZ_PATH). Bank lookups that
 * valid-looking input causes go to the bank simulator on loopback. URLs stay under Node's 16 kB header
 * limit, past which Node itself answers a bare 431 before the app sees the request.
 */

let api: TestApi;
let sim: Simulator;
let tenant: Tenant;
let cashierKey: string;
let cases = 0;

beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  api = await startTestApi({ banks: started.banks });
  tenant = await createTenant(api.db, { quota: 50 });
  cashierKey = await createKey(api.db, tenant.branchId, "cashier");
  // A few records, so random small ids sometimes name a real account or verification.
  for (const [bank, account_number] of [
    ["cbe", "1000123456789"],
    ["boa", "121226009"],
    ["telebirr", "251911234567"],
  ]) {
    await send({ method: "POST", path: "/accounts", json: { bank, account_number, label: bank } });
  }
  await send({
    method: "POST",
    path: "/verify",
    json: { bank: "telebirr", transaction_number: "ZZZ9ZZZ9ZZ" },
  });
});
afterAll(async () => {
  agent.destroy();
  await api?.close();
  await sim?.close();
});

interface Request {
  method: string;
  path: string;
  key?: string | null;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Uint8Array;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

// node:http with keep-alive: about 1 ms less CPU per request than fetch, which matters over 10,000 of them.
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function send(request: Request): Promise<Answer> {
  const headers: Record<string, string> = { ...request.headers };
  const key = request.key === undefined ? tenant.key : request.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let body = request.body;
  if (request.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(request.json);
  }
  const payload = body === undefined ? undefined : Buffer.from(body);
  if (payload) headers["content-length"] = String(payload.length);
  // Percent-encoded the way fetch and browsers send it (raw non-ASCII is not valid in a request line).
  const { hostname, port, pathname, search } = new URL(`/api/v1${request.path}`, api.url);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: hostname, port, path: `${pathname}${search}`, method: request.method, headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: response.headers["content-type"] ?? "",
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

const NOT_FOUND_RESULT_KEYS = ["data", "duplicate", "exists", "message", "success"];

/** The contract's error shapes, or any JSON object for a success. */
function expectContractAnswer(request: Request, answer: Answer): void {
  const where = `${request.method} ${request.path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  expect(answer.contentType, where).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(answer.text);
  expect(typeof body === "object" && body !== null && !Array.isArray(body), where).toBe(true);
  const record = body as Record<string, unknown>;
  if (answer.status < 400) return;
  if (answer.status === 404 && "data" in record) {
    // POST /verify: the contract's not-found result.
    expect(Object.keys(record).sort(), where).toEqual(NOT_FOUND_RESULT_KEYS);
    expect(record, where).toMatchObject({ success: false, exists: false, duplicate: false });
    return;
  }
  expect(typeof record.message === "string" && record.message.length > 0, where).toBe(true);
  if ("errors" in record) {
    expect(answer.status, where).toBe(422);
    expect(Object.keys(record).sort(), where).toEqual(["errors", "message"]);
    const errors = record.errors as Record<string, unknown>;
    expect(Object.keys(errors).length, where).toBeGreaterThan(0);
    for (const messages of Object.values(errors)) {
      expect(Array.isArray(messages) && messages.length > 0, where).toBe(true);
      for (const message of messages as unknown[]) expect(typeof message, where).toBe("string");
    }
  } else {
    expect(Object.keys(record), where).toEqual(["message"]);
  }
}

/** Runs a property over generated requests; every one must get a contract answer. */
async function check(
  arbitrary: fc.Arbitrary<Request>,
  numRuns: number,
  examples: Request[] = [],
): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (request) => {
      cases += 1;
      const answer = await send(request);
      expectContractAnswer(request, answer);
    }),
    {
      numRuns,
      examples: examples.map((example) => [example] as [Request]),
      // FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/hardening/fuzz.test.ts -t "<test>" replays a failure.
      ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    },
  );
  if (!details.failed) return;
  // fast-check's own report prints the whole counterexample, which may be 256 kB of text.
  const example = JSON.stringify(details.counterexample, (_key, value: unknown) =>
    typeof value === "string" && value.length > 300
      ? `${value.slice(0, 300)}…(${value.length} chars)`
      : value,
  );
  throw new Error(
    `Property failed; replay with FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}\n` +
      `Counterexample: ${example?.slice(0, 2000)}\n${String(details.errorInstance).slice(0, 2000)}`,
  );
}

/** A JSON body: an object of the endpoint's fields (wrong types included), or raw hostile JSON text. */
function jsonBodies(fields: readonly string[]): fc.Arbitrary<Pick<Request, "json" | "body" | "headers">> {
  return fc.oneof(
    { weight: 3, arbitrary: fieldsObject(fields).map((json) => ({ json })) },
    {
      weight: 2,
      arbitrary: rawJsonBody(fields).map((body) => ({
        body,
        headers: { "content-type": "application/json" },
      })),
    },
  );
}

/** Known multipart oddities, sent on every run whatever the seed. */
function multipartExamples(): Request[] {
  const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\n");
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const cases: [RawPart[], Framing][] = [
    [[{ name: "bank", data: new TextEncoder().encode("cbe") }], "ok"], // no file
    [
      [
        { name: "receipt_file", filename: "a.pdf", data: pdf },
        { name: "receipt_file", filename: "b.pdf", data: pdf },
      ],
      "ok",
    ],
    [[{ name: "file", filename: "a.pdf", type: "application/pdf", data: pdf }], "ok"], // wrong field name
    [[{ name: "receipt_file", filename: "r.pdf", type: "application/pdf", data: png }], "ok"], // lying type
    [[{ name: "receipt_file", filename: "r.pdf", type: "application/pdf", data: pdf }], "wrong-boundary"],
    [[{ name: "receipt_file", filename: "r.pdf", data: pdf }], "no-closing"],
    [[{ name: "receipt_file", filename: "r.pdf", data: pdf }], "no-boundary-param"],
    [[{ name: "receipt_file", filename: "r.pdf", data: pdf }], "truncated"],
    [[{ name: "receipt_file", filename: "empty.pdf", data: new Uint8Array() }], "ok"],
  ];
  return ["/verify", "/verify/parse-receipt"].flatMap((path) =>
    cases.map(([parts, framing]) => {
      const { contentType, body } = encodeMultipart(parts, framing, "fuzz-boundary");
      return { method: "POST", path, headers: { "content-type": contentType }, body };
    }),
  );
}

const ACCOUNT_FIELDS = ["bank", "account_number", "label", "is_primary"] as const;
const VERIFY_FIELDS = [
  "bank",
  "transaction_number",
  "account_number",
  "bank_account_id",
  "receipt_url",
  "receipt_text",
] as const;

// The properties run side by side: while one request waits on PostgreSQL, others are parsed. Each test
// lasts about as long as all of them together (they share the API), several minutes on a loaded 2-core
// machine: the bound is for a hang only.
describe.concurrent("hostile input never gets a 5xx or leaves the contract's shape", {
  timeout: 600_000,
}, () => {
  it("GET /banks, with any query, header or method", async () => {
    await check(
      fc.record({
        method: fc.constantFrom("GET", "GET", "POST", "PUT", "DELETE", "PATCH"),
        path: queryString.map((query) => `/banks?${query}`),
        key: fc.constantFrom(null, "chk_nonsense"),
      }),
      300,
    );
  });

  it("any Authorization header on every route", async () => {
    const visibleAscii = hostileString.map((value) => value.replace(/[^\x20-\x7e]/g, "").trim());
    await check(
      fc.record({
        method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT"),
        path: fc.constantFrom(
          "/accounts",
          "/accounts/1",
          "/verifications",
          "/verifications/1",
          "/verifications/bulk",
          "/verify",
          "/verify/parse-url",
          "/verify/parse-receipt",
          "/nothing-here",
        ),
        key: fc.constant(null),
        headers: fc.oneof(
          visibleAscii.map((value) => ({ authorization: value })),
          visibleAscii.map((value) => ({ authorization: `Bearer ${value}` })),
          fc
            .stringMatching(/^chk_[A-Za-z0-9_-]{0,140}$/)
            .map((value) => ({ authorization: `Bearer ${value}` })),
        ),
      }),
      500,
    );
  });

  it("GET /accounts and POST /accounts", async () => {
    await check(
      fc.oneof(
        queryString.map((query) => ({ method: "GET", path: `/accounts?${query}` })),
        jsonBodies(ACCOUNT_FIELDS).map((body) => ({ method: "POST", path: "/accounts", ...body })),
      ),
      1400,
    );
  });

  it("PATCH and DELETE /accounts/{id}", async () => {
    await check(
      fc.oneof(
        fc
          .tuple(pathIdSegment, jsonBodies(["label", "is_primary", "bank", "account_number"]))
          .map(([id, body]) => ({ method: "PATCH", path: `/accounts/${id}`, ...body })),
        pathIdSegment.map((id) => ({ method: "DELETE", path: `/accounts/${id}` })),
        pathIdSegment.map((id) => ({ method: "GET", path: `/accounts/${id}` })),
      ),
      1200,
    );
  });

  it("GET /verifications with any query string", async () => {
    await check(
      fc.tuple(queryString, fc.boolean()).map(([query, cashier]) => ({
        method: "GET",
        path: `/verifications?${query}`,
        ...(cashier ? { key: cashierKey } : {}),
      })),
      1000,
    );
  });

  it("GET and DELETE /verifications/{id}, DELETE /verifications/bulk", async () => {
    const ids = fc.oneof(
      fc.array(fc.oneof(fc.integer(), hostileValue), { maxLength: 120 }),
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }),
      hostileValue,
    );
    await check(
      fc.oneof(
        pathIdSegment.map((id) => ({ method: "GET", path: `/verifications/${id}` })),
        pathIdSegment.map((id) => ({ method: "DELETE", path: `/verifications/${id}` })),
        fc.tuple(ids, fc.boolean()).map(([value, cashier]) => ({
          method: "DELETE",
          path: "/verifications/bulk",
          json: { ids: value },
          ...(cashier ? { key: cashierKey } : {}),
        })),
        jsonBodies(["ids"]).map((body) => ({ method: "DELETE", path: "/verifications/bulk", ...body })),
      ),
      1200,
    );
  });

  it("POST /verify with a JSON body", async () => {
    const reference = fc
      .tuple(fc.constantFrom(...BANK_CODES), hostileString, fc.option(hostileString, { nil: undefined }))
      .map(([bank, transaction_number, account_number]) => ({
        bank,
        transaction_number,
        ...(account_number === undefined ? {} : { account_number }),
      }));
    await check(
      fc
        .oneof(
          { weight: 3, arbitrary: jsonBodies(VERIFY_FIELDS) },
          { weight: 1, arbitrary: reference.map((json) => ({ json })) },
        )
        .map((body) => ({ method: "POST", path: "/verify", ...body })),
      1800,
    );
  });

  it("POST /verify/parse-url", async () => {
    await check(
      fc
        .oneof(
          jsonBodies(["receipt_url"]),
          hostileString.map((value) => ({ json: { receipt_url: `https://${value}` } })),
        )
        .map((body) => ({ method: "POST", path: "/verify/parse-url", ...body })),
      800,
    );
  });

  it("POST /verify and /verify/parse-receipt with multipart bodies (no file, two files, lying types, broken framing)", async () => {
    await check(
      fc
        .tuple(fc.constantFrom("/verify", "/verify/parse-receipt"), rawMultipart)
        .map(([path, multipart]) => ({
          method: "POST",
          path,
          headers: { "content-type": multipart.contentType },
          body: multipart.body,
        })),
      1400,
      multipartExamples(),
    );
    expect(await leftoverUploads()).toEqual([]);
  });

  it("POST /verify/parse-receipt with JSON, and bodies under the wrong content type", async () => {
    const paths = [
      "/accounts",
      "/accounts/1",
      "/verifications/bulk",
      "/verify",
      "/verify/parse-url",
      "/verify/parse-receipt",
    ];
    await check(
      fc.oneof(
        jsonBodies(["receipt_text", "bank", "receipt_file"]).map((body) => ({
          method: "POST",
          path: "/verify/parse-receipt",
          ...body,
        })),
        fc
          .tuple(
            fc.constantFrom(...paths),
            fc.constantFrom(
              "text/plain",
              "application/x-www-form-urlencoded",
              "application/json; charset=utf-16",
              "application/vnd.api+json",
              "application/xml",
              "multipart/form-data",
              "multipart/mixed; boundary=x",
              "image/png",
              "",
            ),
            fc.oneof(hostileString, rawJsonBody(["bank", "receipt_url"])),
          )
          .map(([path, type, body]) => ({
            method: path === "/verifications/bulk" ? "DELETE" : path === "/accounts/1" ? "PATCH" : "POST",
            path,
            headers: { "content-type": type },
            body,
          })),
      ),
      1000,
    );
  });
});

describe("fields named like Object's own properties", () => {
  // Found by the properties above: these names were dropped from `errors`, leaving a 422 with errors {}.
  it.each(["constructor", "toString", "hasOwnProperty", "prototype"])(
    "reports %s like any other field",
    async (name) => {
      const answer = await send({ method: "PATCH", path: "/accounts/1", json: { [name]: [] } });
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.text)).toEqual({
        message: "The given data was invalid.",
        errors: { [name]: [`The ${name} field is prohibited.`] },
      });
    },
  );

  it("refuses a __proto__ key as malformed JSON (the body parser's prototype-poisoning guard)", async () => {
    const answer = await send({
      method: "PATCH",
      path: "/accounts/1",
      headers: { "content-type": "application/json" },
      body: '{"__proto__":{"role":"admin"}}',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ message: "The request body is not valid JSON." });
  });
});

describe("after the properties", () => {
  it("covered at least 10,000 generated requests, and the service logged no server error", async () => {
    console.info(`fuzz: ${cases} generated requests`);
    expect(cases).toBeGreaterThanOrEqual(10_000);
    expect(api.logs.filter((line) => /"level":50|request failed/.test(line))).toEqual([]);
    expect((await send({ method: "GET", path: "/banks", key: null })).status).toBe(200);
  });
});
