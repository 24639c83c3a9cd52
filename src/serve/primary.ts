import { type Config, ConfigError, loadConfig } from "../config.js";
import { type EmbeddedDatabase, EmbeddedDatabaseBusyError } from "../db/embedded.js";
import { openDatabase } from "../db/open-database.js";
import { createLogger } from "../logger.js";
import { startWorkers } from "./workers.js";

/** Past the verification deadline a worker's drain has answered everyone; this long after, it is ended. */
const DRAIN_MARGIN_MS = 10_000;

/**
 * The cluster's primary. It serves nothing: it validates the configuration, starts the embedded
 * PostgreSQL once (when DATABASE_URL is unset), forks WEB_CONCURRENCY workers that each run the whole
 * service (src/serve/worker.ts) on the shared port, replaces a worker that dies or stops responding, and
 * on SIGTERM or SIGINT lets every worker drain before it stops the database and exits.
 */
export async function runPrimary(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  let stopRequested = false;
  let stopping: Promise<never> | undefined;
  let database: EmbeddedDatabase | undefined;
  let workers: ReturnType<typeof startWorkers> | undefined;

  const stop = (code: number): Promise<never> => {
    stopping ??= (async () => {
      await workers?.stop(config.verifyDeadlineMs + DRAIN_MARGIN_MS);
      await database?.stop();
      logger.info("stopped");
      process.exit(code);
    })();
    return stopping;
  };
  // A signal while the database starts is kept until it is up: stopping then also stops it.
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "shutting down");
    stopRequested = true;
    if (database) void stop(0);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);

  // The workers load their code while the database starts; they wait for its URL to serve.
  workers = startWorkers({
    count: config.webConcurrency,
    logger,
    // A worker that cannot start before any has served (port taken, database unreachable) would fail the
    // same way again: it said why, and the service stops.
    onStartFailed: () => {
      logger.fatal("a worker could not start; stopping");
      void stop(1);
    },
  });
  logger.info({ workers: config.webConcurrency, primary: process.pid }, "workers starting");
  try {
    database = await openDatabase(config, logger, {
      onLost: (error) => {
        logger.fatal({ err: error }, "the embedded database is gone; stopping");
        void stop(1);
      },
      onUpChange: (up) => workers?.setDatabaseUp(up),
    });
  } catch (error) {
    if (error instanceof EmbeddedDatabaseBusyError) process.stderr.write(`${error.message}\n`);
    else logger.fatal({ err: error }, "start failed");
    await workers.stop(0);
    process.exit(1);
  }
  if (stopRequested) return void stop(0);
  workers.setDatabase(database.url);
}
