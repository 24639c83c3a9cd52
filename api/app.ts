import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import Koa, { type Next } from "koa";
import { createAuthenticator } from "../src/auth/api-keys.js";
import type { KeyCache } from "../src/auth/key-cache.js";
import type { DatabaseAvailability } from "../src/db/availability.js";
import type { BankBreakers, VerificationEngine } from "../src/engine/index.js";
import type { Logger } from "../src/logger.js";
import { httpMetrics } from "../src/metrics/http.js";
import { createMetrics, type Metrics } from "../src/metrics/registry.js";
import type { ReceiptReader } from "../src/receipts/reader.js";
import type { WorkersReady } from "../src/serve/readiness.js";
import type { ApiContext, ApiState } from "./context.js";

import { errorRenderer } from "./errors.js";
import { requireApiKey } from "./middleware/auth.js";
import { closeConnectionsWhileDraining } from "./middleware/close-while-draining.js";
import { refuseWhileDatabaseUnreachable, watchDatabase } from "./middleware/database-gate.js";
import { rateLimitPerKey } from "./middleware/rate-limit.js";
import { requestContext } from "./middleware/request-context.js";
import { securityHeaders } from "./middleware/security-headers.js";
import type { SandboxExamples } from "./openapi/examples.js";
import { accountsRoutes } from "./routes/accounts.js";
import { banksRoutes } from "./routes/banks.js";
import { docsRoutes } from "./routes/docs.js";
import { healthRoutes, livenessRoutes } from "./routes/health.js";
import { metricsRoutes } from "./routes/metrics.js";
import { openApiRoutes } from "./routes/openapi.js";
import { verificationsRoutes } from "./routes/verifications.js";
import { verifyRoutes } from "./routes/verify.js";

export interface ApiDependencies {
  orm: MikroORM;
  engine: VerificationEngine;
  reader: ReceiptReader;
  logger: Logger;
  /** Callers of recently used keys, kept while the database's notifications of key changes are heard. */
  keyCache?: KeyCache;
  /** Requests per minute per API key; none when absent or 0 (tests, the benchmark). */
  rateLimitPerMinute?: number;
  /** This instance's instruments (shared with the engine, the reader and the bot); a new set when absent. */
  metrics?: Metrics;
  /** METRICS_TOKEN: GET /metrics needs it as a bearer token when set. */
  metricsToken?: string | undefined;
  /** The engine's bank breakers, shown in /readyz. */
  breakers?: BankBreakers;
  /** False while the embedded PostgreSQL is down: /healthz answers 503. Absent with DATABASE_URL. */
  databaseAlive?: (() => boolean) | undefined;
  /** How many of the instance's workers serve, for /readyz; absent when this process serves alone. */
  workersReady?: (() => WorkersReady) | undefined;
  /** True once the instance drains (its connections then close after their answer). */
  draining?: () => boolean;
  /** Whether this process can reach PostgreSQL: requests needing it are refused at once while it cannot. */
  database?: DatabaseAvailability | undefined;
  /** Every bank's sandbox receipt, for the OpenAPI examples (the composition root takes them from the simulator). */
  sandboxExamples: SandboxExamples;
}

/** The Koa application: /api/v1 (spec and its OpenAPI document), /docs, /healthz, /readyz and /metrics. */
export function createApi({
  orm,
  engine,
  reader,
  logger,
  keyCache,
  rateLimitPerMinute,
  metrics = createMetrics(),
  metricsToken,
  breakers,
  databaseAlive,
  workersReady,
  draining = () => false,
  sandboxExamples,
  database,
}: ApiDependencies): Koa<ApiState> {
  const app = new Koa<ApiState>();
  // Errors are rendered by errorRenderer and logged there with the request id; Koa's default logs again.
  app.silent = true;

  app.use(closeConnectionsWhileDraining(draining));
  app.use(requestContext(logger));
  app.use(httpMetrics(metrics));
  app.use(securityHeaders);
  if (database) app.use(watchDatabase(database));
  app.use(errorRenderer());
  app.use(unmatchedRoutes);

  const v1 = new Router<ApiState>({ prefix: "/api/v1" });
  const authenticated = new Router<ApiState>();
  authenticated.use(refuseWhileDatabaseUnreachable(() => metrics.databaseRefusals.inc()));
  authenticated.use(requireApiKey(createAuthenticator(orm, keyCache)));
  if (rateLimitPerMinute) authenticated.use(rateLimitPerKey(rateLimitPerMinute));
  for (const routes of [verifyRoutes(engine, reader, orm), accountsRoutes(orm), verificationsRoutes(orm)]) {
    authenticated.use(routes.routes(), routes.allowedMethods());
  }
  for (const open of [banksRoutes(), openApiRoutes(sandboxExamples)])
    v1.use(open.routes(), open.allowedMethods());
  v1.use(authenticated.routes(), authenticated.allowedMethods());
  // The API first: a router that finds no route of its own still walks all its routes, and a request the API
  // answers goes no further, so the probes, metrics and docs routers below cost API requests nothing.
  app.use(v1.routes());
  app.use(v1.allowedMethods());

  app.use(livenessRoutes(databaseAlive).routes());
  const health = healthRoutes(orm, breakers, workersReady, database);
  app.use(health.routes());
  const scrape = metricsRoutes(metrics, metricsToken);
  app.use(scrape.routes());
  const docs = docsRoutes();
  app.use(docs.routes());
  app.use(docs.allowedMethods());
  return app;
}

/** Gives JSON bodies to the router's bare 404 (no route), 405 and 501 (wrong method) answers. */
async function unmatchedRoutes(ctx: ApiContext, next: Next): Promise<void> {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) {
    // Assigning a body makes Koa answer 200 unless the status is set explicitly.
    ctx.status = 404;
    ctx.body = { message: "Not found." };
  }
  if (ctx.status === 405 || ctx.status === 501) {
    ctx.status = 405;
    ctx.body = { message: "The method is not allowed for this route." };
  }
}
