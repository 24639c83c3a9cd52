import { Migrator } from "@mikro-orm/migrations";
import { MikroORM, PostgreSqlDriver } from "@mikro-orm/postgresql";
import { MIGRATIONS } from "../../migrations/index.js";
import { connectionSettings, type DatabaseTimeouts, poolSettings } from "./connection-limits.js";
import { ENTITIES } from "./entities/index.js";

export interface OrmOptions {
  clientUrl: string;
  poolMax?: number;
  debug?: boolean;
  /** Acquire and statement time limits (the service); none for the CLI, tests and scripts. */
  timeouts?: DatabaseTimeouts;
}

/** The MikroORM configuration shared by the service, the admin CLI, tests and the migration generator. */
export function ormConfig(options: OrmOptions) {
  return {
    driver: PostgreSqlDriver,
    clientUrl: options.clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      path: "migrations",
      // Classes are imported statically: the v6 migrator's import() of .ts files fails under vitest.
      migrationsList: MIGRATIONS,
      snapshotName: ".snapshot",
      transactional: true,
      allOrNothing: true,
      emit: "ts" as const,
      silent: true,
    },
    pool: { min: 0, max: options.poolMax ?? 10 },
    // MikroORM merges driverOptions into the knex configuration it builds (connection and pool included).
    driverOptions: {
      connection: { ...connectionSettings(options.timeouts), ...socketOf(options.clientUrl) },
      pool: poolSettings(options.timeouts),
    },
    debug: options.debug ?? false,
    // Entities are plain schemas; no reflection, no discovery at run time.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  };
}

export type Orm = MikroORM;

/**
 * libpq's form for a Unix socket, `postgres://user@localhost/db?host=/var/run/postgresql`: MikroORM builds
 * the pool's connection from the URL's host and port and drops the query, so without this the pool would
 * use TCP while pg's own connection strings (key changes, the bot's lock) use the socket.
 */
function socketOf(clientUrl: string): { host: string } | Record<string, never> {
  const host = URL.canParse(clientUrl) ? new URL(clientUrl).searchParams.get("host") : null;
  return host?.startsWith("/") ? { host } : {};
}

/** Connects and brings the schema up to date with the committed migrations. */
export async function openOrm(options: OrmOptions): Promise<Orm> {
  const orm = await MikroORM.init(ormConfig(options));
  try {
    if (!options.timeouts) await orm.getMigrator().up();
    else if ((await orm.getMigrator().getPendingMigrations()).length > 0) {
      // A migration may rightly run longer than any request's statement: it gets a connection without limits.
      const migrating = await MikroORM.init(ormConfig({ clientUrl: options.clientUrl, poolMax: 1 }));
      try {
        await migrating.getMigrator().up();
      } finally {
        await migrating.close(true);
      }
    }
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}
