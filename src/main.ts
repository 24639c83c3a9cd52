import { startService } from "./compose.js";
import { ConfigError, loadConfig } from "./config.js";
import { EmbeddedDatabaseBusyError } from "./db/embedded.js";
import { createLogger } from "./logger.js";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logger = createLogger(config.logLevel);

try {
  // The embedded PostgreSQL keeps dying or cannot be restarted: nothing here can be served any more, and a
  // non-zero exit is what makes a supervisor start everything afresh (the next start cleans up).
  const service = await startService(config, logger, () => process.exit(1));
  if (service.bootstrapped) printFirstRunKey(service.url, service.bootstrapped.key);

  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "shutting down");
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  if (error instanceof EmbeddedDatabaseBusyError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    logger.fatal({ err: error }, "start failed");
  }
  process.exit(1);
}

/** Shown once, on the terminal, never in a log line. */
function printFirstRunKey(url: string, key: string): void {
  process.stdout.write(
    [
      "",
      'Birrcheck is set up: a "Default business" with one branch and this admin API key (shown only now):',
      "",
      `  ${key}`,
      "",
      "Try it:",
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/accounts`,
      "",
      `API reference: ${url}/docs (Authorize with the key above)`,
      "",
      "",
    ].join("\n"),
  );
}
