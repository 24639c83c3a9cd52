import { Migrator } from "@mikro-orm/migrations";
import { MikroORM } from "@mikro-orm/postgresql";
import { MIGRATIONS } from "../../migrations/index.js";
import { holdAdvisoryLock } from "./advisory-lock.js";
import { type OrmOptions, ormConfig } from "./orm.js";

/** ormConfig with the migrator: migrateToLatest and the migration generator (scripts/migration-create.ts). */
export function migratorConfig(options: OrmOptions) {
  return {
    ...ormConfig(options),
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
  };
}

/**
 * Applies the committed migrations not yet applied and returns their names, on a connection of its own without the service's
 * statement time limits: a migration may rightly run longer than any request's statement. Workers and
 * instances starting together take turns under a lock; the later ones find nothing left to apply.
 */
export async function migrateToLatest(clientUrl: string): Promise<string[]> {
  const lock = await holdAdvisoryLock(clientUrl, "birrcheck:migrations");
  try {
    const orm = await MikroORM.init(migratorConfig({ clientUrl, poolMax: 1 }));
    try {
      return (await orm.getMigrator().up()).map((migration) => migration.name);
    } finally {
      await orm.close(true);
    }
  } finally {
    await lock.release();
  }
}
