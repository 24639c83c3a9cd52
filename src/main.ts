import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import type { Config } from "./config.js";
import { startsCluster } from "./serve/cluster-mode.js";
import { askForDatabase, DATABASE_FROM_PRIMARY } from "./serve/first-worker.js";

// A cluster's primary loads no library and reads no configuration: it stays a bare `node` in memory, and
// its first worker validates the configuration and hands it what supervising needs (first-worker.ts).
if (cluster.isPrimary && startsCluster(process.env.WEB_CONCURRENCY, availableParallelism())) {
  const { runPrimary } = await import("./serve/primary.js");
  await runPrimary();
} else {
  const [{ ConfigError, loadConfig }, { createLogger }] = await Promise.all([
    import("./config.js"),
    import("./logger.js"),
  ]);
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  // Asked before loading the service's code, so that the primary starts the database meanwhile.
  const database = process.env[DATABASE_FROM_PRIMARY] ? askForDatabase(config) : undefined;
  const { runInstance } = await import("./serve/instance.js");
  await runInstance(
    config,
    cluster.isWorker ? logger.child({ worker: cluster.worker?.id }) : logger,
    database,
  );
}
