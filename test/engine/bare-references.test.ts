import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createEngine, type VerificationEngine } from "../../src/engine/index.js";
import { createLogger } from "../../src/logger.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

// banks.md §1.2: which banks a bare reference can belong to. The bot asks the cashier to choose when
// several fit ("never auto-select"), so a bank must not claim shapes that are not its own.

let db: TestDatabase;
let engine: VerificationEngine;
beforeAll(async () => {
  db = await createTestDatabase();
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  engine = createEngine(loadConfig({}).banks, db.orm, createLogger("silent", silent));
});
afterAll(async () => {
  await engine?.close();
  await db?.drop();
});

describe("banksForReference", () => {
  it.each([
    ["a 16-character Dashen FT Ref", "822LTWS2622600WJ", ["dashen"]],
    ["an Awash share token", "-2KDL95Z0NR-4U61O6", ["awash"]],
    ["a CBE mobile-receipt token (mixed case)", "v2-hfHCxGvIhvqVMTB7hylL", ["cbe"]],
    ["a Zemen share token (24 characters)", "94497018108ATWR2520600HM", ["zemen"]],
    [
      "10 uppercase letters and digits: M-Pesa, Telebirr or CBE Birr",
      "UGO4D2CODA",
      ["telebirr", "cbebirr", "mpesa"],
    ],
  ])("%s", (_what, reference, banks) => {
    expect(engine.banksForReference(reference)).toEqual(banks);
  });

  it("keeps FT + 10 ambiguous between the T24 banks", () => {
    const banks = engine.banksForReference("FT26140P01YB");
    expect(banks).toEqual(expect.arrayContaining(["cbe", "boa", "amhara", "sinqee"]));
    expect(banks).not.toContain("dashen");
  });
});
