import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../src/db/embedded.js";

const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

/** Where the server saw a connection from its URL come: null over a Unix socket. */
async function clientAddress(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ address: string | null }>(
      "select inet_client_addr()::text as address",
    );
    return rows[0]?.address ?? null;
  } finally {
    await client.end();
  }
}

async function embeddedIn(dataDir: string) {
  cleanup.push(dataDir);
  return startEmbeddedPostgres({ dataDir, ephemeral: true });
}

describe("the embedded PostgreSQL's address", () => {
  it("is a Unix socket in its data directory, named in libpq's form", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-socket-"));
    const server = await embeddedIn(dataDir);
    try {
      const url = new URL(server.url);
      expect(url.searchParams.get("host")).toBe(path.join(dataDir, "postgres"));
      expect(await clientAddress(server.url)).toBeNull();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("is TCP on loopback where the socket's path would not fit", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "birrcheck-socket-"));
    // As root the server runs as another user, who must be able to reach the data directory.
    await chmod(parent, 0o755);
    const server = await embeddedIn(
      path.join(parent, "a-data-directory-whose-path-is-too-long-for-a-unix-socket".repeat(2)),
    );
    try {
      expect(new URL(server.url).searchParams.has("host")).toBe(false);
      expect(await clientAddress(server.url)).toBe("127.0.0.1/32");
    } finally {
      await server.stop();
      cleanup.push(parent);
    }
  }, 60_000);
});
