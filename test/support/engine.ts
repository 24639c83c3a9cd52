import { Writable } from "node:stream";
import { loadConfig } from "../../src/config.js";
import { createEngine, type VerificationEngine } from "../../src/engine/index.js";
import { createLogger } from "../../src/logger.js";
import { createSandboxGateway } from "../../src/simulator/sandbox-gateway.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface TestEngine {
  db: TestDatabase;
  engine: VerificationEngine;
  /** Closes the engine and drops the database. */
  close(): Promise<void>;
}

/** The engine alone on a fresh database, with the default bank settings and the sandbox simulator, silent. */
export async function startTestEngine(): Promise<TestEngine> {
  const db = await createTestDatabase();
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const engine = createEngine(loadConfig({}).banks, db.orm, createLogger("silent", silent), {
    sandbox: createSandboxGateway(),
  });
  return {
    db,
    engine,
    close: async () => {
      await engine.close();
      await db.drop();
    },
  };
}
