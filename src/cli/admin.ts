// npm run admin -- <command> [--flags] [--json]: businesses, branches, API keys and Telegram invites.
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config.js";
import { EmbeddedDatabaseBusyError, runningEmbeddedUrl, startEmbeddedPostgres } from "../db/embedded.js";
import { openOrm } from "../db/orm.js";
import { NotFoundError } from "../errors.js";
import { COMMANDS, UsageError, usage } from "./commands.js";

const EXIT_USAGE = 2;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help") {
    process.stdout.write(usage());
    return 0;
  }
  if (!name) throw new UsageError("A command is required.");
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${name}".`);
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { ...command.flags, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { json, ...flags } = values;

  const config = loadConfig(process.env);
  const database = await resolveDatabase(config.databaseUrl, config.dataDir);
  try {
    const orm = await openOrm({ clientUrl: database.url, poolMax: 2, pooler: config.database.pooler });
    try {
      const result = await command.run(orm.em.fork(), flags);
      process.stdout.write(json ? `${JSON.stringify(result.data, null, 2)}\n` : `${result.text}\n`);
      return 0;
    } finally {
      await orm.close();
    }
  } finally {
    await database.stop();
  }
}

/**
 * DATABASE_URL when set; else the embedded database. When the service already runs on the same data
 * directory, its server is used (and the user told so): PostgreSQL cannot be started on it twice.
 */
async function resolveDatabase(databaseUrl: string | undefined, dataDir: string) {
  if (databaseUrl) return { url: databaseUrl, stop: async () => undefined };
  const running = await runningEmbeddedUrl(dataDir);
  if (running) {
    process.stderr.write(
      `Using the embedded database of the running service (PostgreSQL pid ${running.pid}).\n`,
    );
    return { url: running.url, stop: async () => undefined };
  }
  return startEmbeddedPostgres({ dataDir });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${usage()}`);
      process.exit(EXIT_USAGE);
    }
    const expected = [NotFoundError, ConfigError, EmbeddedDatabaseBusyError].some(
      (type) => error instanceof type,
    );
    process.stderr.write(
      `${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
    );
    process.exit(1);
  },
);
