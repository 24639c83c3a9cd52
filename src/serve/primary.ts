import cluster, { type Worker } from "node:cluster";
import { type EmbeddedDatabase, EmbeddedDatabaseBusyError } from "../db/embedded.js";
import { openDatabase } from "../db/open-database.js";
import { createLineLogger } from "../line-logger.js";
import { answerDatabase, DATABASE_FROM_PRIMARY, settingsFrom } from "./first-worker.js";
import { batchedLeadSender, leadMessagesIn } from "./lead-messages.js";
import { createLeadRegistry } from "./lead-registry.js";
import { relayScrapes } from "./metrics-relay.js";

/** A worker's own drain ends by the verification deadline and a few seconds; past this it is killed. */
const DRAIN_MARGIN_MS = 10_000;
/** Workers that keep dying soon after starting are restarted ever more slowly, up to this pause. */
const MAX_RESTART_PAUSE_MS = 10_000;
const SHORT_LIFE_MS = 10_000;

/**
 * The cluster primary (WEB_CONCURRENCY > 1): starts the embedded PostgreSQL once, forks the workers that
 * serve (src/serve/instance.ts) on one shared port, restarts a worker that dies, coordinates identical
 * verifications across them (lead-registry.ts), and on SIGTERM lets every worker drain before stopping the
 * database. It serves nothing itself, and imports nothing but Node's own modules and the few of ours that
 * supervise: the configuration reaches it from the first worker (first-worker.ts).
 */
export async function runPrimary(): Promise<void> {
  let database: EmbeddedDatabase | undefined;
  const registry = createLeadRegistry();
  let stopping: Promise<never> | undefined;
  let restartPause = 0;
  // Bank answers travel between workers with their dates intact.
  cluster.setupPrimary({ serialization: "advanced" });

  const startedAt = new Map<number, number>();
  const fork = (env: Record<string, string>): Worker => {
    const worker = cluster.fork(env);
    startedAt.set(worker.id, Date.now());
    const peer = {
      id: worker.id,
      send: batchedLeadSender((batch) => {
        if (worker.isConnected()) worker.send(batch);
      }),
    };
    worker.on("message", (ipc: unknown) => {
      for (const message of leadMessagesIn(ipc)) registry.receive(peer, message);
    });
    worker.once("exit", () => registry.forget(worker.id));
    relayScrapes(worker);
    return worker;
  };

  // The first worker brings the schema up to date and, on an empty database, creates the first admin key;
  // the others start once it listens, so no two migrate at once and the key is made and shown once. It
  // loads its code while the database starts.
  const first = fork({ [DATABASE_FROM_PRIMARY]: "1" });
  const settings = await settingsFrom(first);
  // Its configuration is invalid: it said why on stderr.
  if (!settings) process.exit(1);
  const logger = createLineLogger(settings.logLevel);

  const stop = (code: number): Promise<never> => {
    stopping ??= (async () => {
      const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
      await Promise.all(
        workers.map((worker) => drained(worker, settings.verifyDeadlineMs + DRAIN_MARGIN_MS)),
      );
      await database?.stop();
      logger.info("stopped");
      process.exit(code);
    })();
    return stopping;
  };

  // Only the server: the first worker creates the service's database in it, so that no client loads here.
  const serverOnly = true;
  const starting = openDatabase(
    settings,
    logger,
    (error) => {
      logger.fatal({ err: error }, "the embedded database is gone; stopping");
      void stop(1);
    },
    serverOnly,
  );
  answerDatabase(
    first,
    starting.then((started) => ({ url: started.url, embedded: !settings.databaseUrl })),
  );
  try {
    database = await starting;
  } catch (error) {
    first.process.kill("SIGKILL");
    if (error instanceof EmbeddedDatabaseBusyError) process.stderr.write(`${error.message}\n`);
    else logger.fatal({ err: error }, "start failed");
    process.exit(1);
  }
  if (!(await listens(first))) {
    logger.fatal("the first worker could not start; stopping");
    await database.stop();
    process.exit(1);
  }
  const later = { BOOTSTRAP: "false", DATABASE_URL: database.url };
  for (let i = 1; i < settings.webConcurrency; i++) fork(later);
  logger.info({ workers: settings.webConcurrency }, "cluster started");

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const shortLived = Date.now() - (startedAt.get(worker.id) ?? 0) < SHORT_LIFE_MS;
    startedAt.delete(worker.id);
    restartPause = shortLived ? Math.min(MAX_RESTART_PAUSE_MS, Math.max(250, restartPause * 2)) : 0;
    logger.error(
      { worker: worker.id, code, signal, restartInMs: restartPause },
      "worker died; starting another",
    );
    setTimeout(() => {
      if (!stopping) fork(later);
    }, restartPause);
  });

  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
}

/** True once the worker listens; false when it exits first. */
function listens(worker: Worker): Promise<boolean> {
  return new Promise((resolve) => {
    worker.once("listening", () => resolve(true));
    worker.once("exit", () => resolve(false));
  });
}

/** SIGTERM (the worker drains and exits), then SIGKILL when it is still there after `limitMs`. */
function drained(worker: Worker, limitMs: number): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => worker.process.kill("SIGKILL"), limitMs);
    worker.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    worker.process.kill("SIGTERM");
  });
}
