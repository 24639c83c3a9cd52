import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createApi } from "../../api/app.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { loadConfig } from "../../src/config.js";
import { type BankBreakers, createBankBreakers, createEngine } from "../../src/engine/index.js";
import { createLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/metrics/registry.js";
import { createReceiptReader } from "../../src/receipts/reader.js";
import { sandboxExamples } from "../../src/simulator/sandbox-examples.js";
import { createSandboxGateway } from "../../src/simulator/sandbox-gateway.js";
import { createTenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type Simulator, startBanks } from "../support/simulator.js";

export interface MetricsApi {
  url: string;
  db: TestDatabase;
  sim: Simulator;
  breakers: BankBreakers;
  /** GET /metrics, parsed. */
  scrape(headers?: Record<string, string>): Promise<Samples>;
  close(): Promise<void>;
}

/**
 * The API wired the way compose.ts wires it (one metrics registry, breakers in front of the live banks),
 * with every bank at the simulator: no retries and short timeouts, so a failing bank fails fast.
 */
export async function startMetricsApi(
  options: {
    metricsToken?: string;
    failures?: number;
    cooldownMs?: number;
    /** The breakers' clock (epoch ms); the real one by default. */
    now?: () => number;
  } = {},
): Promise<MetricsApi> {
  const db = await createTestDatabase();
  const { sim, banks } = await startBanks({
    timeoutsMs: Object.fromEntries(BANK_CODES.map((code) => [code, 1_000])),
    retries: Object.fromEntries(BANK_CODES.map((code) => [code, 0])),
  });
  const logger = createLogger("silent", new Writable({ write: (_c, _e, done) => done() }));
  const metrics = createMetrics();
  const breakers = createBankBreakers(
    { failures: options.failures ?? 5, cooldownMs: options.cooldownMs ?? 30_000 },
    options.now,
  );
  metrics.watchBreakers(breakers.states);
  const engine = createEngine({ ...loadConfig({}).banks, ...banks }, db.orm, logger, {
    sandbox: createSandboxGateway(),
    metrics,
    breakers,
  });
  const app = createApi({
    orm: db.orm,
    engine,
    reader: createReceiptReader({ ocr: null, metrics }),
    logger,
    metrics,
    metricsToken: options.metricsToken,
    breakers,
    sandboxExamples: sandboxExamples(),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    db,
    sim,
    breakers,
    async scrape(headers = {}) {
      const response = await fetch(`${url}/metrics`, { headers });
      if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
      return parseSamples(await response.text());
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await engine.close();
      await sim.close();
      await db.drop();
    },
  };
}

/** A sandbox (chk_test_) key on a new branch. */
export async function sandboxKey(db: TestDatabase): Promise<string> {
  const tenant = await createTenant(db, { name: "sandbox" });
  return (await createApiKey(db.orm.em.fork(), tenant.branchId, "cashier", { test: true })).key;
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export class Samples {
  constructor(readonly all: Sample[]) {}

  /** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.matching(name, labels);
    if (found.length > 1)
      throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0]?.value ?? 0;
  }

  matching(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.all.filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  }
}

/** Prometheus text exposition format: `name{label="value",...} value` lines, comments skipped. */
export function parseSamples(text: string): Samples {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[label[1] ?? ""] = (label[2] ?? "").replace(/\\(.)/g, (_all, char: string) =>
        char === "n" ? "\n" : char,
      );
    }
    samples.push({ name: match[1] ?? "", labels, value: Number(match[3]) });
  }
  return new Samples(samples);
}
