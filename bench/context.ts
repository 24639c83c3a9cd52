import path from "node:path";
import type { Pool } from "undici";
import { type FakeTelegram, startFakeTelegram } from "../fakes/telegram.js";
import { createBranch, createBusiness } from "../src/admin/businesses.js";
import { createApiKey } from "../src/auth/api-keys.js";
import { type Orm, openOrm } from "../src/db/orm.js";
import type { Simulator } from "../src/simulator/server.js";
import type { DatabaseServer } from "./database.js";
import { clientPool, type Exchange, exchange } from "./load.js";
import { type ServiceChild, startServiceChild } from "./service.js";
import { benchReference } from "./sim-bank.js";

const BOT_TOKEN = "123456:BENCH-TOKEN-0123456789abcdefABCDEF";

/** What every scenario works with: the service, the simulator behind it, a tenant, and the database. */
export interface BenchContext {
  service: ServiceChild;
  sim: Simulator;
  /** Keep-alive pools to the service and to the simulator. */
  api: Pool;
  simClient: Pool;
  orm: Orm;
  tenant: BenchTenant;
  /** The fake Bot API the service's bot polls (scenario 8). */
  telegram: FakeTelegram;
  /** The processes serving HTTP with WEB_CONCURRENCY's default, as deployed. */
  workers: number;
  /**
   * Another service of the same build (WEB_CONCURRENCY `workers`, or its default), with `env` added to the
   * bench's; the caller stops it.
   */
  startService(
    workers: number | undefined,
    name: string,
    env?: Record<string, string>,
  ): Promise<ServiceChild>;
  /**
   * The made-up telebirr reference `index` of run `tag` (sim-bank.ts): a scenario run more than once on
   * one service (an A/B run) gets new ones each time, since a receipt is confirmed once per branch.
   */
  reference(tag: string, index: number): string;
  /** POST /api/v1/verify of a telebirr reference with the verifying branch's key. */
  verify(reference: string): Promise<Exchange>;
  /** The same against another service (its own connections). */
  verifierOf(service: ServiceChild): (reference: string) => Promise<Exchange>;
}

export interface BenchTenant {
  businessId: number;
  /** Branch whose history gets the bench's verifications. */
  verifyBranch: { id: number; key: string };
  /** Branch that holds the million history rows of scenario 7, and nothing else. */
  historyBranch: { id: number; key: string };
}

export interface BuildOptions {
  /** The build's directory: its package.json's `start` says how to run it. */
  dir: string;
  /** Names its log files: "this", or the commit compared against. */
  name: string;
  database: DatabaseServer;
  sim: Simulator;
  simClient: Pool;
  /** Where its service logs go. */
  work: string;
  cpuProfileDir?: string;
  /** Registers a step that undoes what was just set up, run last-first when the bench ends. */
  defer(step: () => Promise<unknown>): void;
}

/**
 * One build's service on a scratch database of its own, with the bench's tenant and a fake Bot API of its
 * own, sharing the simulator. The schema and the tenant are written with this build's code (openOrm
 * migrates): the bench compares another build only when its migrations are the same (worktree.ts).
 */
export async function openBuild(options: BuildOptions): Promise<BenchContext> {
  const { defer } = options;
  const database = await options.database.scratch();
  defer(() => database.drop());
  const orm = await openOrm({ clientUrl: database.url, poolMax: 4 });
  defer(() => orm.close(true));
  const tenant = await createBenchTenant(orm);
  const telegram = await startFakeTelegram({ token: BOT_TOKEN });
  defer(() => telegram.close());
  // The per-key rate limit is off: the bench sends thousands of requests a minute with one key.
  const env = {
    DATABASE_URL: database.url,
    BANK_ORIGIN_OVERRIDES: options.sim.overrides,
    LOG_LEVEL: "info",
    API_RATE_LIMIT: "0",
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  };
  const startService = async (
    workers: number | undefined,
    name: string,
    extra: Record<string, string> = {},
  ) => {
    const service = await startServiceChild({
      dir: options.dir,
      env: { ...env, ...extra, ...(workers === undefined ? {} : { WEB_CONCURRENCY: String(workers) }) },
      logFile: path.join(options.work, `${options.name}-${name}.log`),
      ...(options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}),
    });
    defer(() => service.stop());
    return service;
  };
  // As deployed: WEB_CONCURRENCY's default, which each build chooses for itself.
  const service = await startService(undefined, "service");
  const api = clientPool(service.url, 1100);
  defer(() => api.close());
  return {
    service,
    sim: options.sim,
    api,
    simClient: options.simClient,
    orm,
    tenant,
    telegram,
    workers: service.servingProcesses(),
    startService,
    reference: benchReference,
    verify: verifier(api, tenant.verifyBranch.key),
    verifierOf(other) {
      const pool = clientPool(other.url, 64);
      defer(() => pool.close());
      return verifier(pool, tenant.verifyBranch.key);
    },
  };
}

/** A business whose quota the bench cannot use up, with one branch per purpose and a cashier key each. */
export async function createBenchTenant(orm: Orm): Promise<BenchTenant> {
  const em = orm.em.fork();
  const business = await createBusiness(em, "Bench business", 1_000_000_000);
  const branch = async (name: string) => {
    const { id } = await createBranch(em, business.id, name);
    const { key } = await createApiKey(em, id, "cashier", { label: `${name} key` });
    return { id, key };
  };
  return {
    businessId: business.id,
    verifyBranch: await branch("Bench verify"),
    historyBranch: await branch("Bench history"),
  };
}

/** True for the answer of a confirmed verification. */
export function confirmed(result: Exchange): boolean {
  return result.status === 200 && (result.body as { success?: unknown }).success === true;
}

export function verifier(api: Pool, key: string) {
  return (reference: string) =>
    exchange(api, "/api/v1/verify", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      json: { bank: "telebirr", transaction_number: reference },
    });
}
