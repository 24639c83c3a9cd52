import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { type Orm, openOrm } from "../../src/db/orm.js";

export interface TestDatabase {
  url: string;
  orm: Orm;
  /** Closes the ORM and drops the database. */
  drop(): Promise<void>;
}

/** A fresh database on the test server, built by running the committed migrations. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const empty = await createEmptyDatabase();
  const orm = await openOrm({ clientUrl: empty.url, poolMax: 20 });
  return {
    url: empty.url,
    orm,
    drop: async () => {
      await orm.close(true);
      await empty.drop();
    },
  };
}

/** A database on the test server with nothing in it, not even the migrations. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new URL(inject("adminDatabaseUrl"));
  const name = `birrcheck_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(admin, (client) => client.query(`create database "${name}"`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withAdminClient(admin, (client) =>
        client.query(`drop database if exists "${name}" with (force)`),
      );
    },
  };
}

async function withAdminClient<T>(url: URL, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
