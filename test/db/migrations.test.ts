import { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../migrations/index.js";
import { MIGRATION_NAMES } from "../../migrations/names.js";
import { migratorConfig } from "../../src/db/migrate.js";
import { openOrm } from "../../src/db/orm.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe("migrations", () => {
  it("are all applied to a fresh database", async () => {
    const executed: { name: string }[] = await db.orm.em
      .fork()
      .execute("select name from mikro_orm_migrations order by id");
    expect(executed.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it("are named in migrations/names.ts, which a starting service checks the database against", () => {
    expect(MIGRATION_NAMES).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it("that are pending (the latest undone) are applied by the next start", async () => {
    const migrator = await MikroORM.init(migratorConfig({ clientUrl: db.url, poolMax: 1 }));
    try {
      await migrator.getMigrator().down();
      expect(await migrator.getMigrator().getPendingMigrations()).toHaveLength(1);
      const restarted = await openOrm({ clientUrl: db.url, poolMax: 1 });
      await restarted.close(true);
      expect(await migrator.getMigrator().getPendingMigrations()).toEqual([]);
    } finally {
      await migrator.close(true);
    }
  });

  it("match the entities: generating again would produce nothing", async () => {
    const diff = await db.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe("");
  });

  it("create the history indexes and the race-free uniqueness constraints", async () => {
    const rows: { indexname: string; indexdef: string }[] = await db.orm.em
      .fork()
      .execute("select indexname, indexdef from pg_indexes where schemaname = 'public'");
    const byName = new Map(rows.map((row) => [row.indexname, row.indexdef]));
    expect(byName.get("confirmed_receipts_pkey")).toMatch(
      /UNIQUE.*\(branch_id, bank, transaction_number, sandbox\)/,
    );
    expect(byName.get("saved_accounts_one_primary")).toMatch(/UNIQUE.*\(branch_id, bank\) WHERE is_primary/);
    expect(byName.get("verifications_history_idx")).toMatch(/\(branch_id, created_at DESC, id DESC\)/);
    expect(byName.get("verifications_history_success_idx")).toMatch(
      /\(branch_id, success, created_at DESC, id DESC\)/,
    );
  });
});
