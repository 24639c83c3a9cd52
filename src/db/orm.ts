import { Migrator } from "@mikro-orm/migrations";
import { MikroORM, PostgreSqlDriver } from "@mikro-orm/postgresql";
import { MIGRATIONS } from "../../migrations/index.js";
import { ENTITIES } from "./entities/index.js";

export interface OrmOptions {
  clientUrl: string;
  poolMax?: number;
  debug?: boolean;
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
    debug: options.debug ?? false,
    // Entities are plain schemas; no reflection, no discovery at run time.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  };
}

export type Orm = MikroORM;

/** Connects and brings the schema up to date with the committed migrations. */
export async function openOrm(options: OrmOptions): Promise<Orm> {
  const orm = await MikroORM.init(ormConfig(options));
  try {
    await orm.getMigrator().up();
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}
