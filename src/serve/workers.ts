import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { Logger } from "../logger.js";
import { isOurs, type ToPrimary, type ToWorker } from "./messages.js";

/** A serving worker silent this long has a blocked event loop: it gets no more connections and is replaced. */
const BLOCKED_AFTER_MS = 5_000;
const CHECK_EVERY_MS = 1_000;
/** Workers that keep dying soon after starting are restarted ever more slowly, up to this pause. */
const SHORT_LIFE_MS = 10_000;
const MAX_RESTART_PAUSE_MS = 10_000;

export interface WorkerSetOptions {
  count: number;
  logger: Logger;
  /** A worker exited before the set first became ready: starting again would fail the same way. */
  onStartFailed(): void;
}

export interface WorkerSet {
  /** The database is up at `url`: workers waiting for it start their service. */
  setDatabase(url: string): void;
  setDatabaseUp(up: boolean): void;
  /** Lets every worker drain and exit; ends those still there after `limitMs`. */
  stop(limitMs: number): Promise<void>;
}

interface Member {
  worker: Worker;
  startedAt: number;
  serving: boolean;
  lastAlive: number;
}

/**
 * Forks and supervises the cluster's workers. Node's cluster hands each new connection to a worker that
 * took its previous one, so a worker whose event loop is blocked stops getting connections at once; once it
 * has been silent for BLOCKED_AFTER_MS it is killed and replaced. Every worker is told how many serve, so
 * that /readyz says 200 only when all of them do.
 */
export function startWorkers(options: WorkerSetOptions): WorkerSet {
  const { count, logger } = options;
  const members = new Map<number, Member>();
  const metrics = new AggregatorRegistry();
  let databaseUrl: string | undefined;
  let databaseUp = true;
  const wanting = new Set<Worker>();
  let stopping = false;
  let everReady = false;
  let restartPause = 0;

  const servingCount = () => [...members.values()].filter((member) => member.serving).length;
  const status = (): ToWorker => ({
    type: "birrcheck:status",
    serving: servingCount(),
    workers: count,
    stopping,
    databaseUp,
  });
  const send = (worker: Worker, message: ToWorker) => {
    // A worker that is exiting may close its channel under the message: there is nothing to tell it then.
    if (worker.isConnected()) worker.send(message, undefined, undefined, () => undefined);
  };
  const broadcast = () => {
    const message = status();
    for (const { worker } of members.values()) send(worker, message);
  };

  const fork = () => {
    const worker = cluster.fork();
    const member: Member = { worker, startedAt: Date.now(), serving: false, lastAlive: Date.now() };
    members.set(worker.id, member);
    worker.on("message", (message: unknown) => {
      if (!isOurs<ToPrimary>(message)) return;
      member.lastAlive = Date.now();
      if (message.type === "birrcheck:database-wanted") {
        if (databaseUrl) send(worker, { type: "birrcheck:database", url: databaseUrl });
        else wanting.add(worker);
      }
      if (message.type === "birrcheck:serving") {
        member.serving = true;
        broadcast();
        if (!everReady && servingCount() === count) {
          everReady = true;
          logger.info({ workers: count }, "every worker serves");
        }
      }
      if (message.type === "birrcheck:metrics") {
        metrics.clusterMetrics().then(
          (text) => send(worker, { type: "birrcheck:metrics", id: message.id, text }),
          () => send(worker, { type: "birrcheck:metrics", id: message.id, text: null }),
        );
      }
    });
    worker.once("exit", (code, signal) => {
      members.delete(worker.id);
      wanting.delete(worker);
      broadcast();
      if (stopping) return;
      if (!everReady) return options.onStartFailed();
      const shortLived = Date.now() - member.startedAt < SHORT_LIFE_MS;
      restartPause = shortLived ? Math.min(MAX_RESTART_PAUSE_MS, Math.max(250, restartPause * 2)) : 0;
      logger.error(
        { worker: worker.id, code, signal, restartInMs: restartPause },
        "worker exited; starting another",
      );
      setTimeout(() => {
        if (!stopping) fork();
      }, restartPause);
    });
  };
  const watchdog = setInterval(() => {
    const now = Date.now();
    for (const { worker, serving, lastAlive } of members.values()) {
      if (!serving || now - lastAlive < BLOCKED_AFTER_MS || worker.isDead()) continue;
      logger.error(
        { worker: worker.id, silentMs: now - lastAlive },
        "worker stopped responding; replacing it",
      );
      worker.process.kill("SIGKILL");
    }
  }, CHECK_EVERY_MS);
  watchdog.unref();

  for (let i = 0; i < count; i++) fork();

  return {
    setDatabase(url) {
      databaseUrl = url;
      for (const worker of wanting) send(worker, { type: "birrcheck:database", url });
      wanting.clear();
    },
    setDatabaseUp(up) {
      databaseUp = up;
      broadcast();
    },
    async stop(limitMs) {
      stopping = true;
      clearInterval(watchdog);
      broadcast();
      const exits = [...members.values()].map(
        ({ worker }) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const end = setTimeout(() => worker.process.kill("SIGKILL"), limitMs);
            worker.once("exit", () => {
              clearTimeout(end);
              resolve();
            });
            // A signal, not a message: a worker still loading its code has no listener for messages yet.
            worker.process.kill("SIGTERM");
          }),
      );
      await Promise.all(exits);
    },
  };
}
