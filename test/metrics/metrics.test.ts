import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_CODES } from "../../src/banks/codes.js";
import { createTenant, type Tenant } from "../support/api.js";
import { firstExample, referenceBody, simulatedBank } from "../support/simulator.js";
import { type MetricsApi, startMetricsApi } from "./harness.js";

const TOKEN = "metrics-token-0123456789";

let api: MetricsApi;
beforeAll(async () => {
  api = await startMetricsApi();
});
afterAll(async () => {
  await api?.close();
});

async function post(tenant: Tenant, path: string, json: unknown) {
  const response = await fetch(`${api.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: await response.json() };
}

describe("GET /metrics", () => {
  it("counts outcomes, bank latency and errors, quota rejections and requests by route", async () => {
    const tenant = await createTenant(api.db, { quota: 3 });
    const confirmed = await post(tenant, "/verify", referenceBody("telebirr", firstExample("telebirr")));
    expect(confirmed.status).toBe(200);
    const { notFound } = simulatedBank("dashen");
    const missing = await post(tenant, "/verify", {
      bank: "dashen",
      transaction_number: notFound.transactionNumber,
    });
    expect(missing.status).toBe(404);
    api.sim.setMode("mpesa", { kind: "error", status: 500 });
    const outage = await post(tenant, "/verify", referenceBody("mpesa", firstExample("mpesa")));
    api.sim.setMode("mpesa", { kind: "normal" });
    expect(outage.status).toBe(503);
    api.sim.setMode("boa", { kind: "garbage" });
    const garbage = await post(tenant, "/verify", referenceBody("boa", firstExample("boa")));
    api.sim.setMode("boa", { kind: "normal" });
    expect(garbage.status).toBe(502);
    // The third unit of the quota, then a refusal.
    expect((await post(tenant, "/verify", referenceBody("cbe", firstExample("cbe")))).status).toBe(200);
    const refused = await post(tenant, "/verify", referenceBody("awash", firstExample("awash")));
    expect(refused.status).toBe(402);
    const idPath = await fetch(`${api.url}/api/v1/verifications/987654`, {
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    expect(idPath.status).toBe(404);

    const samples = await api.scrape();
    const verifications = (bank: string, outcome: string) =>
      samples.value("birrcheck_verifications_total", { bank, outcome, sandbox: "false" });
    expect(verifications("telebirr", "confirmed")).toBe(1);
    expect(verifications("dashen", "not_found")).toBe(1);
    expect(verifications("mpesa", "bank_unavailable")).toBe(1);
    expect(verifications("boa", "bank_unreadable")).toBe(1);
    expect(verifications("cbe", "confirmed")).toBe(1);
    expect(samples.matching("birrcheck_verifications_total", { bank: "awash" })).toEqual([]);
    expect(samples.value("birrcheck_quota_rejections_total")).toBe(1);

    // One lookup each reached telebirr, dashen, mpesa, boa and cbe; awash was never asked.
    for (const bank of ["telebirr", "dashen", "mpesa", "boa", "cbe"]) {
      expect(samples.value("birrcheck_bank_lookup_duration_seconds_count", { bank })).toBe(1);
      expect(samples.value("birrcheck_bank_lookup_duration_seconds_bucket", { bank, le: "+Inf" })).toBe(1);
    }
    expect(samples.value("birrcheck_bank_lookup_duration_seconds_count", { bank: "awash" })).toBe(0);
    expect(samples.value("birrcheck_bank_errors_total", { bank: "mpesa", kind: "server_error" })).toBe(1);
    expect(samples.value("birrcheck_bank_errors_total", { bank: "boa", kind: "garbage" })).toBe(1);
    expect(samples.matching("birrcheck_bank_errors_total", { bank: "telebirr" })).toEqual([]);

    // Requests by route pattern and status, never by raw path.
    const http = (route: string, status: string) =>
      samples.value("birrcheck_http_request_duration_seconds_count", { method: "POST", route, status });
    expect(http("/api/v1/verify", "200")).toBe(2);
    expect(http("/api/v1/verify", "404")).toBe(1);
    expect(http("/api/v1/verify", "503")).toBe(1);
    expect(http("/api/v1/verify", "502")).toBe(1);
    expect(http("/api/v1/verify", "402")).toBe(1);
    expect(
      samples.value("birrcheck_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/v1/verifications/:id",
        status: "404",
      }),
    ).toBe(1);
    const routes = new Set(
      samples.matching("birrcheck_http_request_duration_seconds_count").map((s) => s.labels.route),
    );
    expect([...routes].some((route) => route?.includes("987654"))).toBe(false);

    // Every breaker closed; Node's own process metrics are there too.
    for (const bank of BANK_CODES) expect(samples.value("birrcheck_bank_breaker_state", { bank })).toBe(0);
    expect(samples.matching("process_cpu_user_seconds_total")).toHaveLength(1);
    expect(samples.matching("nodejs_eventloop_lag_seconds")).toHaveLength(1);
  });

  it("labels unknown paths as unmatched", async () => {
    await fetch(`${api.url}/no/such/path/123`);
    const samples = await api.scrape();
    expect(
      samples.value("birrcheck_http_request_duration_seconds_count", {
        method: "GET",
        route: "unmatched",
        status: "404",
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("serves the Prometheus text format without an API key when no token is set", async () => {
    const response = await fetch(`${api.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    // Not part of the public API.
    expect((await fetch(`${api.url}/api/v1/metrics`)).status).toBe(404);
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  let guarded: MetricsApi;
  beforeAll(async () => {
    guarded = await startMetricsApi({ metricsToken: TOKEN });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it("answers 401 in JSON without the token or with another one, and the metrics with it", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token-0123456789" },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${guarded.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message: "Unauthenticated." });
    }
    const samples = await guarded.scrape({ authorization: `Bearer ${TOKEN}` });
    expect(samples.matching("birrcheck_bank_breaker_state")).toHaveLength(BANK_CODES.length);
  });
});
