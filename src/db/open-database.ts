import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded.js";
import { type EmbeddedDatabaseHandlers, embeddedEventHandler } from "./embedded-events.js";

/** DATABASE_URL when given; otherwise the embedded PostgreSQL server in DATA_DIR, started here. */
export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  logger: Logger,
  handlers: EmbeddedDatabaseHandlers,
): Promise<EmbeddedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  logger.info({ dataDir: config.dataDir }, "starting the embedded PostgreSQL server");
  return startEmbeddedPostgres({
    dataDir: config.dataDir,
    onLog: (line) => logger.debug({ component: "postgres" }, line),
    onEvent: embeddedEventHandler(logger, handlers),
  });
}
