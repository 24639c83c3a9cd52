import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded.js";
import { embeddedEventHandler } from "./embedded-events.js";

/** DATABASE_URL when given; otherwise the embedded PostgreSQL server in DATA_DIR, started here. */
export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  logger: Logger,
  /** The embedded server is gone for good (it keeps dying or cannot restart). */
  onLost: (error: Error) => void,
): Promise<EmbeddedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  logger.info({ dataDir: config.dataDir }, "starting the embedded PostgreSQL server");
  return startEmbeddedPostgres({
    dataDir: config.dataDir,
    onLog: (line) => logger.debug({ component: "postgres" }, line),
    onEvent: embeddedEventHandler(logger, onLost),
  });
}
