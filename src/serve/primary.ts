import type { Server } from "node:net";
import { MessageChannel, Worker } from "node:worker_threads";
import { type EmbeddedDatabase, EmbeddedDatabaseBusyError } from "../db/embedded.js";
import { openDatabase } from "../db/open-database.js";
import { createLineLogger } from "../line-logger.js";
import { createConnectionRelay, type RelayTarget } from "./connection-relay.js";
import { answerDatabase, DATABASE_FROM_PRIMARY, settingsFrom } from "./first-worker.js";
import { batchedLeadSender, leadMessagesIn } from "./lead-messages.js";
import { createLeadRegistry } from "./lead-registry.js";
import { clearRow, sharedLeadSlots } from "./lead-slots.js";
import { STOP_MESSAGE, type WorkerThreadData } from "./message-end.js";
import { relayScrapes } from "./metrics-relay.js";
import { letWorkersSizeTheirYoungGeneration, WORKER_HEAP } from "./worker-heap.js";

/** A worker's own drain ends by the verification deadline and a few seconds; past this it is ended. */
const DRAIN_MARGIN_MS = 10_000;
/** Workers that keep dying soon after starting are restarted ever more slowly, up to this pause. */
const MAX_RESTART_PAUSE_MS = 10_000;
const SHORT_LIFE_MS = 10_000;
/** How often the workers' view of the embedded database's liveness is refreshed. */
const HEALTH_POLL_MS = 100;

interface ServingThread {
  id: number;
  row: number;
  thread: Worker;
  relay: RelayTarget;
  startedAt: number;
  /** Why it ended, when it threw or outgrew its heap. */
  failure?: Error;
}

/**
 * The primary (WEB_CONCURRENCY > 1): starts the embedded PostgreSQL once, runs the workers that serve
 * (src/serve/instance.ts) as threads of this process, each listening on the port itself (shared-port.ts)
 * or, where the platform cannot share a port, through the primary's relay (connection-relay.ts), restarts
 * a worker that dies, coordinates identical verifications across them (lead-registry.ts), and on SIGTERM
 * lets every worker drain before stopping the database. It serves nothing itself, and imports nothing but
 * Node's own modules and the few of ours that supervise: the configuration reaches it from the first
 * worker (first-worker.ts). `entry` is the file the workers run.
 */
export async function runPrimary(entry: URL): Promise<void> {
  let database: EmbeddedDatabase | undefined;
  const registry = createLeadRegistry();
  const workers = new Map<number, ServingThread>();
  let stopping: Promise<never> | undefined;
  let restartPause = 0;
  let nextId = 0;
  let listen: (server: Server) => Promise<number> = () => Promise.reject(new Error("no settings yet"));
  const relay = createConnectionRelay((server) => listen(server));
  const databaseUp = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  Atomics.store(databaseUp, 0, 1);
  const leadCounts = sharedLeadSlots();
  letWorkersSizeTheirYoungGeneration();

  const start = (env: Record<string, string>, row: number): ServingThread => {
    const id = ++nextId;
    const { port1, port2 } = new MessageChannel();
    const workerData: WorkerThreadData = { workerId: id, connections: port2, databaseUp, leadCounts, row };
    const thread = new Worker(loader(entry), {
      eval: true,
      env: { ...process.env, ...env },
      workerData,
      transferList: [port2],
      resourceLimits: WORKER_HEAP,
    });
    const worker: ServingThread = { id, row, thread, relay: relay.attach(port1), startedAt: Date.now() };
    workers.set(id, worker);
    const peer = { id, send: batchedLeadSender((batch) => thread.postMessage(batch)) };
    thread.on("message", (message: unknown) => {
      for (const lead of leadMessagesIn(message)) registry.receive(peer, lead);
    });
    relayScrapes(thread, () => [...workers.values()].map((serving) => serving.thread));
    // An uncaught exception or the heap limit: "exit" follows, and the worker is restarted.
    thread.on("error", (error) => {
      worker.failure = error;
    });
    thread.once("exit", () => {
      workers.delete(id);
      relay.detach(worker.relay);
      registry.forget(id);
      clearRow(leadCounts, row);
    });
    return worker;
  };

  // The first worker brings the schema up to date and, on an empty database, creates the first admin key;
  // the others start once it serves, so no two migrate at once and the key is made and shown once. It
  // loads its code while the database starts.
  const first = start({ [DATABASE_FROM_PRIMARY]: "1" }, 0);
  const settings = await settingsFrom(first.thread);
  if (!settings) {
    // An invalid configuration: it said why on stderr. Anything else it threw is said here.
    if (first.failure) process.stderr.write(`${first.failure.stack ?? first.failure}\n`);
    process.exit(1);
  }
  const logger = createLineLogger(settings.logLevel);
  listen = (server) =>
    new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(settings.port, settings.host, () => {
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : settings.port);
      });
    });

  const stop = (code: number): Promise<never> => {
    stopping ??= (async () => {
      relay.close();
      await Promise.all(
        [...workers.values()].map((worker) => drained(worker, settings.verifyDeadlineMs + DRAIN_MARGIN_MS)),
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
    first.thread,
    starting.then((started) => ({ url: started.url, embedded: !settings.databaseUrl })),
  );
  try {
    database = await starting;
  } catch (error) {
    await first.thread.terminate();
    if (error instanceof EmbeddedDatabaseBusyError) process.stderr.write(`${error.message}\n`);
    else logger.fatal({ err: error }, "start failed");
    process.exit(1);
  }
  // The workers' /healthz fails while the embedded server is down, as a process serving alone does.
  const alive = database.alive;
  if (alive) setInterval(() => Atomics.store(databaseUp, 0, alive() ? 1 : 0), HEALTH_POLL_MS).unref();
  const port = await serves(first).catch((error: unknown) => {
    // The port is taken, or the address is not this machine's: said as a process serving alone says it.
    logger.fatal({ err: error }, "start failed");
    return null;
  });
  if (port === null) {
    logger.fatal("the first worker could not start; stopping");
    await database.stop();
    process.exit(1);
  }
  // The port the first worker got (PORT=0 picks one): workers listening themselves bind the same.
  const later = { BOOTSTRAP: "false", DATABASE_URL: database.url, PORT: String(port) };
  const restartWhenDead = (worker: ServingThread) =>
    worker.thread.once("exit", (code) => {
      if (stopping) return;
      const shortLived = Date.now() - worker.startedAt < SHORT_LIFE_MS;
      restartPause = shortLived ? Math.min(MAX_RESTART_PAUSE_MS, Math.max(250, restartPause * 2)) : 0;
      logger.error(
        { worker: worker.id, code, err: worker.failure, restartInMs: restartPause },
        "worker died; starting another",
      );
      setTimeout(() => {
        if (!stopping) restartWhenDead(start(later, worker.row));
      }, restartPause);
    });
  restartWhenDead(first);
  for (let row = 1; row < settings.webConcurrency; row++) restartWhenDead(start(later, row));
  logger.info({ workers: settings.webConcurrency }, "workers started");

  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
}

/**
 * What a worker thread evaluates: an import of the entry file. Under `npm run dev` the entry is TypeScript,
 * and Node 20 applies tsx's hooks (its `--import`) to the main thread only: the worker registers them first.
 */
function loader(entry: URL): string {
  const load = `import(${JSON.stringify(entry.href)})`;
  return entry.pathname.endsWith(".ts")
    ? `import("tsx/esm/api").then((tsx) => tsx.register()).then(() => ${load})`
    : load;
}

/** The port clients reach once the worker serves; null when it exits first. */
function serves(worker: ServingThread): Promise<number | null> {
  const exited = new Promise<null>((resolve) => worker.thread.once("exit", () => resolve(null)));
  return Promise.race([worker.relay.serving, exited]);
}

/** Asks the worker to drain and exit; ends it when it is still there after `limitMs`. */
function drained(worker: ServingThread, limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const end = setTimeout(() => void worker.thread.terminate(), limitMs);
    worker.thread.once("exit", () => {
      clearTimeout(end);
      resolve();
    });
    worker.thread.postMessage(STOP_MESSAGE);
  });
}
