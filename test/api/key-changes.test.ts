import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "../../src/auth/api-keys.js";
import { KEY_CHANGES_APPLICATION } from "../../src/auth/key-changes.js";
import { ApiKeySchema } from "../../src/db/entities/index.js";
import { createTenant, startTestApi, type TestApi } from "../support/api.js";
import { waitFor } from "../support/wait.js";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await until(() => api.keyCache.live);
});
afterAll(() => api.close());

/** A state of the key cache or of an answer; the generous bound stays well inside the cache's 60 s TTL. */
const until = (condition: () => boolean | Promise<boolean>) => waitFor(condition, "the key cache");

const status = async (key: string) => (await api.request("GET", "/accounts", { key })).status;

/** Runs SQL on a connection of its own, as another process would; `silently` turns the triggers off for it. */
async function sql(text: string, silently = false): Promise<void> {
  const client = new pg.Client({ connectionString: api.db.url });
  await client.connect();
  try {
    if (silently) await client.query("set session_replication_role = replica");
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe("API keys answered from memory", () => {
  it("reads a key used lately from memory, not from the database", async () => {
    const tenant = await createTenant(api.db);
    expect(await status(tenant.key)).toBe(200);
    // Revoked without the trigger's notification: only a cached answer can still accept it.
    await sql(`update api_keys set revoked_at = now() where branch_id = ${tenant.branchId}`, true);
    expect(await status(tenant.key)).toBe(200);
    await sql("select pg_notify('api_keys_changed', '')");
    await until(async () => (await status(tenant.key)) === 401);
  });

  it("refuses a key within moments of its revocation by another process", async () => {
    const tenant = await createTenant(api.db);
    expect(await status(tenant.key)).toBe(200);
    const record = await api.db.orm.em.fork().findOneOrFail(ApiKeySchema, { branch: tenant.branchId });
    await revokeApiKey(api.db.orm.em.fork(), record.id);
    await until(async () => (await status(tenant.key)) === 401);
  });

  it("reads every key from the database while the notifications are lost, and remembers again after", async () => {
    const tenant = await createTenant(api.db);
    expect(await status(tenant.key)).toBe(200);
    await sql(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = '${KEY_CHANGES_APPLICATION}' and datname = current_database()`,
    );
    await until(() => !api.keyCache.live);
    expect(await status(tenant.key)).toBe(200);
    await sql(`update api_keys set revoked_at = now() where branch_id = ${tenant.branchId}`, true);
    expect(await status(tenant.key)).toBe(401);

    await until(() => api.keyCache.live);
    const other = await createTenant(api.db);
    expect(await status(other.key)).toBe(200);
    await sql(`update api_keys set revoked_at = now() where branch_id = ${other.branchId}`, true);
    expect(await status(other.key)).toBe(200);
  });
});
