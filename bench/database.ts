import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../src/db/embedded.js";

export interface DatabaseServer {
  /** Where it runs, for the report: "embedded" or the configured server (without credentials). */
  server: string;
  /** A new empty database on it, dropped by `drop`: the bench writes a million rows, never into a real one. */
  scratch(): Promise<{ url: string; drop(): Promise<void> }>;
  stop(): Promise<void>;
}

/**
 * The PostgreSQL server of one bench run: the one of DATABASE_URL, or without it an embedded one in a
 * temporary folder, deleted after.
 */
export async function databaseServer(): Promise<DatabaseServer> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    const admin = new URL(configured);
    return {
      server: `${admin.hostname}:${admin.port || 5432}`,
      scratch: () => scratch(admin),
      stop: async () => {},
    };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-db-"));
  const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  return {
    server: "embedded",
    scratch: () => scratch(new URL(embedded.url)),
    stop: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function scratch(admin: URL): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `birrcheck_bench_${randomBytes(4).toString("hex")}`;
  await withClient(admin, (client) => client.query(`create database "${name}"`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withClient(admin, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

async function withClient<T>(url: URL, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
