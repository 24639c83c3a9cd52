import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { BankBreakers } from "../../src/engine/index.js";
import type { ApiState } from "../context.js";

const READY_TIMEOUT_MS = 2_000;

/**
 * Liveness and readiness probes, outside /api/v1. Readiness depends on the database only: a bank whose
 * breaker is open is shown under `banks`, but this instance serves every other bank and stays ready.
 */
export function healthRoutes(orm: MikroORM, breakers?: BankBreakers): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get("/healthz", (ctx) => {
    ctx.body = { status: "ok" };
  });

  router.get("/readyz", async (ctx) => {
    const database = await databaseReachable(orm);
    ctx.status = database ? 200 : 503;
    ctx.body = {
      status: database ? "ok" : "unavailable",
      checks: { database: database ? "ok" : "unreachable" },
      ...(breakers ? { banks: breakers.states() } : {}),
    };
  });

  return router;
}

async function databaseReachable(orm: MikroORM): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  const probe = orm.em
    .fork()
    .execute("select 1")
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
