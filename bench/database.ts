import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../src/db/embedded.js";

export interface ScratchDatabase {
  url: string;
  /** Where it runs, for the report: "embedded" or the configured server (without credentials). */
  server: string;
  drop(): Promise<void>;
}

/**
 * An empty database for one bench run: with DATABASE_URL, a fresh database on that server, dropped after
 * (the bench writes a million rows; it must never write them into a real database); without it, an
 * embedded PostgreSQL in a temporary folder, deleted after.
 */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    const admin = new URL(configured);
    const name = `birrcheck_bench_${randomBytes(4).toString("hex")}`;
    await withClient(admin, (client) => client.query(`create database "${name}"`));
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      server: `${admin.hostname}:${admin.port || 5432}`,
      drop: async () => {
        await withClient(admin, (client) => client.query(`drop database if exists "${name}" with (force)`));
      },
    };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-db-"));
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  return {
    url: server.url,
    server: "embedded",
    drop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
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
