// vitest globalSetup: one PostgreSQL server for the whole run. TEST_DATABASE_URL when set (an existing
// server; each test file then creates its own database on it), else an embedded server in a temp folder.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../src/db/embedded.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A URL of the server's maintenance database; test files create their own databases from it. */
    adminDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide("adminDatabaseUrl", external);
    return;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-test-db-"));
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  project.provide("adminDatabaseUrl", server.url);
  return async () => {
    await server.stop();
  };
}
