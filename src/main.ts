import cluster from "node:cluster";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logger = createLogger(config.logLevel);

// The primary of a cluster loads only what supervising takes (the database server, forking), not the service.
if (cluster.isPrimary && config.webConcurrency > 1) {
  const { runPrimary } = await import("./serve/primary.js");
  await runPrimary(config, logger);
} else {
  const { runInstance } = await import("./serve/instance.js");
  await runInstance(config, cluster.isWorker ? logger.child({ worker: cluster.worker?.id }) : logger);
}
