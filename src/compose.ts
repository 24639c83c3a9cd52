import { createServer, type Server } from "node:http";
import { createApi } from "../api/app.js";
import { answerMalformedRequestsWithJson } from "../api/client-errors.js";
import { applyServerTimeouts } from "../api/server-settings.js";
import type { TelegramBot } from "../bot/index.js";
import { type Bootstrapped, bootstrapIfEmpty } from "./admin/bootstrap.js";
import { createKeyCache } from "./auth/key-cache.js";
import { listenForKeyChanges } from "./auth/key-changes.js";
import type { Config } from "./config.js";
import { watchDatabaseAvailability } from "./db/availability.js";
import type { DatabasePooler } from "./db/connection-limits.js";
import { openDatabase } from "./db/open-database.js";
import { type Orm, openOrm } from "./db/orm.js";
import { pollingLock } from "./db/polling-lock.js";
import { createBankBreakers, createEngine, type VerificationEngine } from "./engine/index.js";
import { startHistoryMonths } from "./history/months.js";
import type { Logger } from "./logger.js";
import { createMetrics, type Metrics } from "./metrics/registry.js";
import { createOcrEngine } from "./receipts/ocr/index.js";
import { createQrReceiptReader } from "./receipts/qr/read-qr.js";
import { createReceiptReader } from "./receipts/reader.js";
import type { WorkersReady } from "./serve/readiness.js";
import { createServices } from "./services.js";
import { sandboxExamples } from "./simulator/sandbox-examples.js";
import { createSandboxGateway } from "./simulator/sandbox-gateway.js";

export interface RunningService {
  url: string;
  orm: Orm;
  /** Set on the first start of an empty database (BOOTSTRAP not false). */
  bootstrapped: Bootstrapped | null;
  /** Stops accepting, lets in-flight requests finish, closes the ORM, stops the embedded database. */
  close(): Promise<void>;
}

// After the verification deadline, lookups still running are interrupted; their 503s get this long to be written.
const INTERRUPT_AFTER_DEADLINE_MS = 1_000;
const ANSWER_AFTER_INTERRUPT_MS = 2_000;

export interface ServiceOptions {
  /** The embedded database is gone for good (it keeps dying or cannot restart): main exits non-zero. */
  onDatabaseLost?: (error: Error) => void;
  /** This instance's instruments, when its host must reach them (a cluster worker's scrape); new otherwise. */
  metrics?: Metrics;
  /** Whether the embedded database is up, when another process runs it (a cluster worker's primary). */
  databaseAlive?: () => boolean;
  /** Whether every worker of this instance serves, for /readyz (a cluster worker's primary knows). */
  workersReady?: () => WorkersReady;
  /** Called once the API listens, before the bot's code loads. */
  onListening?: () => void;
}

/** The composition root: database, ORM, the API and the Telegram bot on one engine, in one process. */
export async function startService(
  config: Config,
  logger: Logger,
  options: ServiceOptions = {},
): Promise<RunningService> {
  const database = await openDatabase(config, logger, {
    onLost: options.onDatabaseLost ?? (() => undefined),
  });
  let orm: Orm;
  try {
    orm = await openOrm({
      clientUrl: database.url,
      poolMax: config.dbPoolMax,
      timeouts: config.database,
      pooler: config.database.pooler,
      onMigrated: (migrations) => logger.info({ migrations }, "database migrated"),
    });
  } catch (error) {
    await database.stop();
    throw error;
  }
  const bootstrapped = config.bootstrap ? await bootstrapIfEmpty(orm.em.fork()) : null;
  const historyMonths = startHistoryMonths(orm, config.historyRetentionMonths, logger);

  // One set of instruments per instance: the API, the engine, the readers and the bot report into it.
  const metrics = options.metrics ?? createMetrics();
  const breakers = createBankBreakers(config.breaker);
  metrics.watchBreakers(breakers.states);
  // Sandbox keys (chk_test_…) verify against the bank simulator: production code knows it only from here.
  const engine = createEngine(config.banks, orm, logger, {
    sandbox: createSandboxGateway(),
    metrics,
    breakers,
    deadlineMs: config.verifyDeadlineMs,
  });
  // Workers start on the first image; the bot always reads photos, the API only with SERVER_OCR.
  const ocr = config.serverOcr || config.telegram ? createOcrEngine(config.ocr) : null;
  // QR codes are read first in every image, with or without SERVER_OCR: decoding one is cheap.
  const qr = createQrReceiptReader({ boaPassphrase: config.banks.boaQrKey });
  const reader = createReceiptReader({ ocr: config.serverOcr ? ocr : null, qr, metrics });
  const availability = watchDatabaseAvailability(database.url, logger, {
    onChange: (reachable) => metrics.databaseReachable.set(reachable ? 1 : 0),
  });
  const { keyCache, keyChanges } = keyCacheFor(config.database.pooler, database.url, logger);
  let draining = false;
  const app = createApi({
    orm,
    keyCache,
    databaseAlive: options.databaseAlive ?? database.alive,
    workersReady: options.workersReady,
    draining: () => draining,
    engine,
    reader,
    logger,
    rateLimitPerMinute: config.apiRateLimit,
    metrics,
    metricsToken: config.metricsToken,
    breakers,
    sandboxExamples: sandboxExamples(),
    database: availability,
  });
  // The webhook's route answers once the bot's code is loaded; until then Telegram retries the update.
  let telegram: TelegramBot | null = null;
  app.use((ctx, next) => (telegram?.webhook ? telegram.webhook(ctx, next) : next()));
  const server = createServer(app.callback());
  answerMalformedRequestsWithJson(server);
  applyServerTimeouts(server, config.http);
  const port = await listen(server, config.port, config.host);
  const url = `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${port}`;
  logger.info({ port }, "listening");
  options.onListening?.();
  // Loaded after the API listens (it is a third of the service's code): the bot connects in the background.
  if (config.telegram) {
    const { createTelegramBot } = await import("../bot/index.js");
    telegram = createTelegramBot(config.telegram, {
      services: createServices(orm),
      pollingLock: pollingLock(config.database.pooler, database.url),
      engine,
      reader: createReceiptReader({ ocr, qr, metrics }),
      logger,
      metrics,
    });
    telegram.start();
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      draining = true;
      const drained = drain(server, engine);
      logger.info("draining: no new connections; answering those in flight");
      await Promise.all([drained, telegram?.stop()]);
      await engine.close();
      await historyMonths.stop();
      availability.close();
      await keyChanges.close();
      await ocr?.close();
      await orm.close();
      await database.stop();
      logger.info("stopped");
    })();
    return closing;
  };
  return { url, orm, bootstrapped, close };
}

/**
 * Stops accepting connections and waits for in-flight requests, closing idle keep-alive sockets. Every
 * verification ends by its deadline, so waiting that long answers everyone; one still waiting on a bank after
 * it is ended with a 503 that records nothing, and only then are the remaining connections cut.
 */
async function drain(server: Server, engine: VerificationEngine): Promise<void> {
  const interruptAt = engine.deadlineMs + INTERRUPT_AFTER_DEADLINE_MS;
  const interrupt = setTimeout(() => engine.interrupt(), interruptAt);
  const force = setTimeout(() => server.closeAllConnections(), interruptAt + ANSWER_AFTER_INTERRUPT_MS);
  const stopped = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await stopped;
  clearTimeout(interrupt);
  clearTimeout(force);
}

/** Listens on `port` (in a cluster worker, the primary's shared socket); resolves with the port bound. */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}

// Behind a transaction-mode pooler no LISTEN lasts: a remembered key is trusted this long instead, so a
// revoked key is refused everywhere within it.
const POOLED_KEY_TTL_MS = 500;

/** The API-key cache: told of changes by PostgreSQL, or (behind a transaction-mode pooler) short-lived. */
function keyCacheFor(pooler: DatabasePooler, databaseUrl: string, logger: Logger) {
  if (pooler === "transaction") {
    const keyCache = createKeyCache({ ttlMs: POOLED_KEY_TTL_MS });
    keyCache.setLive(true);
    return { keyCache, keyChanges: { close: async () => undefined } };
  }
  const keyCache = createKeyCache();
  return { keyCache, keyChanges: listenForKeyChanges(databaseUrl, keyCache, logger) };
}
