import { Migrator } from "@mikro-orm/migrations";
import { MikroORM } from "@mikro-orm/postgresql";
import { MIGRATIONS } from "../../migrations/index.js";
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
 * Applies the committed migrations not yet applied and returns their names, on connections of their own
 * without the service's statement time limits: a migration may rightly run longer than any request's
 * statement. Workers and instances starting together take turns under a lock held by the migrations' own
 * transaction (so it holds behind a transaction-mode pooler too); the later ones find nothing left to do.
 */
export async function migrateToLatest(clientUrl: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    // Two connections: the migrator checks for its table outside the transaction that holds the lock.
    const orm = await MikroORM.init(migratorConfig({ clientUrl, poolMax: 2 }));
    try {
      const migrator = orm.getMigrator();
      return await orm.em.transactional(async (em) => {
        await em.execute("select pg_advisory_xact_lock(hashtext('birrcheck:migrations'))");
        const applied = await migrator.up({ transaction: em.getTransactionContext() });
        return applied.map((migration) => migration.name);
      });
    } catch (error) {
      // On an empty database, instances starting together may race to create the migrator's own table.
      if (attempt < MAX_ATTEMPTS && createdMeanwhile(error)) continue;
      throw error;
    } finally {
      await orm.close(true);
    }
  }
}

const MAX_ATTEMPTS = 3;

/** PostgreSQL's duplicate_table, or the unique violation two concurrent CREATE TABLEs end in. */
function createdMeanwhile(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "42P07" || code === "23505";
}
