import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { DatabaseAvailability } from "../../src/db/availability.js";
import { databaseAnswers } from "../../src/db/probe.js";
import type { BankBreakers } from "../../src/engine/index.js";
import type { WorkersReady } from "../../src/serve/readiness.js";
import type { ApiState } from "../context.js";

const READY_TIMEOUT_MS = 2_000;

/**
 * Liveness and readiness probes, outside /api/v1. Readiness needs the database and, in a cluster, every
 * worker serving and none draining. A bank whose breaker is open is shown under `banks`, but this instance
 * serves every other bank and stays ready.
 */
export function healthRoutes(
  orm: MikroORM,
  breakers?: BankBreakers,
  workersReady?: () => WorkersReady,
  availability?: DatabaseAvailability,
): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get("/readyz", async (ctx) => {
    // While this process refuses requests for want of its database, it is not ready, whatever a fresh
    // connection would say: its own probe reopens it (src/db/availability.ts).
    const database = availability?.reachable() !== false && (await databaseReachable(orm));
    const workers = workersReady?.();
    const allServing = !workers || (!workers.stopping && workers.serving >= workers.workers);
    ctx.status = database && allServing ? 200 : 503;
    ctx.body = {
      status: database && allServing ? "ok" : "unavailable",
      checks: {
        database: database ? "ok" : "unreachable",
        ...(workers ? { workers: workersCheck(workers) } : {}),
      },
      ...(breakers ? { banks: breakers.states() } : {}),
    };
  });

  return router;
}

function workersCheck({ serving, workers, stopping }: WorkersReady): string {
  if (stopping) return "stopping";
  return serving >= workers ? "ok" : `${serving} of ${workers} serving`;
}

// Probes arriving while one is under way share its answer: a flood of /readyz opens one connection at a time.
const probesInFlight = new WeakMap<MikroORM, Promise<boolean>>();

/**
 * Asked on a short-lived connection of its own (src/db/probe.ts), never a pooled one: a probe that times
 * out against a stalled database must not leave a pooled connection waiting on it.
 */
function databaseReachable(orm: MikroORM): Promise<boolean> {
  const shared = probesInFlight.get(orm);
  if (shared) return shared;
  const probe = databaseAnswers(orm.config.getClientUrl(), READY_TIMEOUT_MS).finally(() =>
    probesInFlight.delete(orm),
  );
  probesInFlight.set(orm, probe);
  return probe;
}

/**
 * Liveness: answers while the process lives, and 503 while the embedded PostgreSQL it owns is down (it
 * died and is being restarted), so a supervisor that probes /healthz restarts a process whose database
 * does not come back. `databaseAlive` is absent with an external database (DATABASE_URL): its outages
 * are /readyz's business, restarting this process would not fix them.
 */
export function livenessRoutes(databaseAlive?: () => boolean): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get("/healthz", (ctx) => {
    if (databaseAlive && !databaseAlive()) {
      ctx.status = 503;
      ctx.body = { status: "unavailable", checks: { database_process: "down" } };
      return;
    }
    ctx.body = { status: "ok" };
  });
  return router;
}
