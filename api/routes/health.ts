import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { ApiState } from "../context.js";

const READY_TIMEOUT_MS = 2_000;

/** Liveness and readiness probes, outside /api/v1. */
export function healthRoutes(orm: MikroORM): Router<ApiState> {
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
