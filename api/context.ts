import type { EntityManager } from "@mikro-orm/postgresql";
import type { ParameterizedContext } from "koa";
import type { Caller } from "../src/auth/api-keys.js";
import type { DatabaseAvailability } from "../src/db/availability.js";
import type { Logger } from "../src/logger.js";

export interface ApiState {
  requestId: string;
  /** When the request arrived (epoch ms): a verification's deadline counts from here. */
  arrivedAt: number;
  log: Logger;
  /** Whether this process can reach PostgreSQL (api/middleware/database-gate.ts); absent in some tests. */
  database?: DatabaseAvailability;
  /** When the request took its Idempotency-Key (epoch ms), if it sent one: its deadline counts from here. */
  claimedAt?: number;
  /** Set by the auth middleware on authenticated routes. */
  caller?: Caller;
  /**
   * Set when the request holds an Idempotency-Key: keeps its answer, in the transaction given (the one that
   * writes the verification, so a crash right after the commit cannot lose the answer of a recorded payment).
   */
  keepAnswer?: (em: EntityManager, status: number, body: object) => Promise<void>;
}

export type ApiContext = ParameterizedContext<ApiState>;

/** The authenticated caller; routes behind `requireApiKey` always have one. */
export function callerOf(ctx: ApiContext): Caller {
  const caller = ctx.state.caller;
  if (!caller) throw new Error("callerOf() used on a route without requireApiKey");
  return caller;
}
