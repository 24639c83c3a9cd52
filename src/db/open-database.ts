import type { Config } from "../config.js";
import type { LineLogger } from "../line-logger.js";
import { type EmbeddedDatabase, startEmbeddedPostgres, startEmbeddedServer } from "./embedded.js";
import { embeddedEventHandler } from "./embedded-events.js";

/**
 * DATABASE_URL when given; otherwise the embedded PostgreSQL server in DATA_DIR, started here. With
 * `serverOnly` the service's database in it is left for the first client to create (the primary of worker
 * threads, which loads no database client, leaves it to its first worker).
 */
export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  logger: LineLogger,
  /** The embedded server is gone for good (it keeps dying or cannot restart). */
  onLost: (error: Error) => void,
  serverOnly = false,
): Promise<EmbeddedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  logger.info({ dataDir: config.dataDir }, "starting the embedded PostgreSQL server");
  const start = serverOnly ? startEmbeddedServer : startEmbeddedPostgres;
  return start({
    dataDir: config.dataDir,
    onLog: (line) => logger.debug({ component: "postgres" }, line),
    onEvent: embeddedEventHandler(logger, onLost),
  });
}
