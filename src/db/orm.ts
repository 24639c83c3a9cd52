import { MikroORM, PostgreSqlDriver } from "@mikro-orm/postgresql";
import { MIGRATION_NAMES } from "../../migrations/names.js";
import {
  connectionSettings,
  type DatabasePooler,
  type DatabaseTimeouts,
  poolSettings,
  watchUnansweredQueries,
} from "./connection-limits.js";
import { ENTITIES } from "./entities/index.js";
import { statementsUnnamed } from "./plain-query.js";

export interface OrmOptions {
  clientUrl: string;
  poolMax?: number;
  debug?: boolean;
  /** Acquire and statement time limits (the service); none for the CLI, tests and scripts. */
  timeouts?: DatabaseTimeouts;
  /** DATABASE_POOLER; "session" when absent. */
  pooler?: DatabasePooler;
  /** Told the names of the migrations this call applied, if it applied any. */
  onMigrated?: (names: string[]) => void;
}

/** The MikroORM configuration shared by the service, the admin CLI, tests and the migrator (migrate.ts). */
export function ormConfig(options: OrmOptions) {
  return {
    driver: PostgreSqlDriver,
    clientUrl: options.clientUrl,
    entities: ENTITIES,
    pool: { min: 0, max: options.poolMax ?? 10 },
    // MikroORM merges driverOptions into the knex configuration it builds (connection and pool included).
    driverOptions: {
      connection: { ...connectionSettings(options.timeouts, options.pooler), ...socketOf(options.clientUrl) },
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

/** Connects, having brought the schema up to date with the committed migrations. */
export async function openOrm(options: OrmOptions): Promise<Orm> {
  const orm = await MikroORM.init(ormConfig(options));
  if (options.pooler === "transaction") statementsUnnamed(orm);
  if (options.timeouts) watchUnansweredQueries(orm.em.getConnection().getKnex());
  try {
    // The migrator and what it depends on are loaded only when there is something to migrate.
    if (await migrationsPending(orm)) {
      const applied = await (await import("./migrate.js")).migrateToLatest(options.clientUrl);
      if (applied.length > 0) options.onMigrated?.(applied);
    }
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

async function migrationsPending(orm: Orm): Promise<boolean> {
  const connection = orm.em.getConnection();
  const [table] = await connection.execute<{ name: string | null }[]>(
    "select to_regclass('mikro_orm_migrations')::text as name",
  );
  if (!table?.name) return true;
  const applied = await connection.execute<{ name: string }[]>("select name from mikro_orm_migrations");
  const names = new Set(applied.map((row) => row.name));
  return MIGRATION_NAMES.some((name) => !names.has(name));
}
