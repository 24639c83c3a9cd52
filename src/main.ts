import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { isMainThread, workerData } from "node:worker_threads";
import type { Config } from "./config.js";
import { askForDatabase, DATABASE_FROM_PRIMARY } from "./serve/first-worker.js";
import type { WorkerThreadData } from "./serve/message-end.js";
import { startsPrimary } from "./serve/primary-mode.js";

// A primary loads no library and reads no configuration: its worker threads run this same file, and the
// first one validates the configuration and hands it what supervising needs (first-worker.ts).
if (isMainThread && startsPrimary(process.env.WEB_CONCURRENCY, availableParallelism())) {
  const { runPrimary } = await import("./serve/primary.js");
  // The workers run the file that was started (this one, or a wrapper of it).
  await runPrimary(process.argv[1] ? pathToFileURL(process.argv[1]) : new URL(import.meta.url));
} else {
  const thread = isMainThread ? undefined : (workerData as WorkerThreadData);
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
  await runInstance(config, thread ? logger.child({ worker: thread.workerId }) : logger, thread, database);
}
