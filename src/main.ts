import cluster from "node:cluster";
import { setFlagsFromString } from "node:v8";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";

// V8 lets the old generation grow to a multiple of what survived its last full collection before it collects
// again, so a burst of 1,000 verifications left each worker holding up to three times its live heap as
// garbage, burst after burst. Growing by a fifth keeps the heap near what is live, with no hard cap that
// could end a worker in the middle of a burst (README, "Production").
setFlagsFromString("--heap-growing-percent=20");

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
