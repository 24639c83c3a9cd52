import cluster from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { RunningService } from "../compose.js";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { createMetrics, type Metrics } from "../metrics/registry.js";
import { isOurs, type ToPrimary, type ToWorker } from "./messages.js";

const ALIVE_EVERY_MS = 1_000;
/** A scrape waits this long for every worker's metrics; prom-client's own limit is 5 s. */
const SCRAPE_WITHIN_MS = 6_000;

/**
 * One cluster worker: the whole service (API, bot, engine) on the port the primary shares, on the database
 * whose URL the primary sends once it is up. It reports when it serves and that its event loop turns, and drains on SIGTERM or
 * SIGINT, which come from the primary or from a process manager signalling the whole process group.
 */
export async function runWorker(): Promise<void> {
  // The primary validated the same environment before forking.
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel).child({ worker: cluster.worker?.id });
  const toPrimary = (message: ToPrimary) => {
    // The primary may be gone (it was killed): the channel then fails, and there is nobody to tell.
    if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
  };
  let status: Extract<ToWorker, { type: "birrcheck:status" }> = {
    type: "birrcheck:status",
    serving: 0,
    workers: config.webConcurrency,
    stopping: false,
    databaseUp: true,
  };
  let listening = false;
  let starting: Promise<RunningService> | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Not listening yet: nothing was accepted, so nothing is owed.
    if (!listening || !starting) process.exit(0);
    starting
      .then((service) => service.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  const scrapes = clusterScrapes(toPrimary);
  let database: (url: string) => void = () => undefined;
  const databaseUrl = new Promise<string>((resolve) => {
    database = resolve;
  });
  process.on("message", (message: unknown) => {
    if (!isOurs<ToWorker>(message)) return;
    if (message.type === "birrcheck:database") database(message.url);
    if (message.type === "birrcheck:status") status = message;
    if (message.type === "birrcheck:metrics") scrapes.answered(message.id, message.text);
  });
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  toPrimary({ type: "birrcheck:database-wanted" });

  // The service's code loads while the primary starts the database.
  const [{ startService }, url] = await Promise.all([import("../compose.js"), databaseUrl]);
  starting = startService({ ...config, databaseUrl: url }, logger, {
    metrics: scrapes.merged(createMetrics()),
    databaseAlive: () => status.databaseUp,
    workersReady: () => status,
    onListening: () => {
      listening = true;
      toPrimary({ type: "birrcheck:serving" });
      setInterval(() => toPrimary({ type: "birrcheck:alive" }), ALIVE_EVERY_MS).unref();
    },
  });
  let service: RunningService;
  try {
    service = await starting;
  } catch (error) {
    logger.fatal({ err: error }, "start failed");
    process.exit(1);
  }
  if (service.bootstrapped) {
    // Shown once, on the terminal, never in a log line.
    const { firstRunBanner } = await import("../admin/first-run-banner.js");
    process.stdout.write(firstRunBanner(service.url, service.bootstrapped));
  }
}

/**
 * GET /metrics in a worker: the primary gathers every worker's registry with prom-client's cluster
 * aggregation (counters and histograms summed) and hands the text back to the worker that was asked.
 */
function clusterScrapes(toPrimary: (message: ToPrimary) => void) {
  const waiting = new Map<number, (text: string | null) => void>();
  let nextId = 0;
  return {
    answered(id: number, text: string | null) {
      waiting.get(id)?.(text);
    },
    merged(metrics: Metrics): Metrics {
      AggregatorRegistry.setRegistries(metrics.registry);
      // Constructing one makes prom-client answer the primary's requests for this worker's registry.
      new AggregatorRegistry();
      const scrape = () =>
        new Promise<string>((resolve, reject) => {
          const id = ++nextId;
          const timer = setTimeout(() => {
            waiting.delete(id);
            reject(new Error("the workers' metrics did not come"));
          }, SCRAPE_WITHIN_MS);
          waiting.set(id, (text) => {
            clearTimeout(timer);
            waiting.delete(id);
            if (text === null) reject(new Error("the workers' metrics could not be gathered"));
            else resolve(text);
          });
          toPrimary({ type: "birrcheck:metrics", id });
        });
      return { ...metrics, scrape };
    },
  };
}
