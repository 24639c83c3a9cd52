import type { Pool } from "undici";
import type { FakeTelegram } from "../fakes/telegram.js";
import { createBranch, createBusiness } from "../src/admin/businesses.js";
import { createApiKey } from "../src/auth/api-keys.js";
import type { Orm } from "../src/db/orm.js";
import type { Simulator } from "../src/simulator/server.js";
import { type Exchange, exchange } from "./load.js";
import type { ServiceChild } from "./service.js";

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
  /** The service's workers (WEB_CONCURRENCY): one per core, as deployed. */
  workers: number;
  /** Another service on the same database and simulator, with `workers` workers; the caller stops it. */
  startService(workers: number, name: string): Promise<ServiceChild>;
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
