import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerificationEngine } from "../../src/engine/index.js";
import { startTestEngine, type TestEngine } from "../support/engine.js";

// docs/banks.md §1.2: which banks a bare reference can belong to. The bot asks the cashier to choose when
// several fit ("never auto-select"), so a bank must not claim shapes that are not its own.

let testEngine: TestEngine;
let engine: VerificationEngine;
beforeAll(async () => {
  testEngine = await startTestEngine();
  ({ engine } = testEngine);
});
afterAll(async () => {
  await testEngine?.close();
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

// The front ends ask the engine once what an input still needs, and find a receipt link without
// a try/catch used as a yes/no.
describe("prepare and findReceiptLink", () => {
  const caller = { branchId: 1, businessId: 1, sandbox: false, source: { type: "api" as const, label: "t" } };

  it("names the bank and the account a CBE FT reference still needs", async () => {
    const input = { kind: "reference" as const, bank: "cbe" as const, transactionNumber: "FT26140P01YB" };
    expect(await engine.prepare(caller, input)).toEqual({ bank: "cbe", missing: "account_number" });
    const complete = { ...input, accountNumber: "10001234" };
    expect(await engine.prepare(caller, complete)).toEqual({ bank: "cbe", missing: null });
  });

  it("needs nothing more for a telebirr link, and refuses a malformed reference as verify would", async () => {
    const link = "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED";
    expect(await engine.prepare(caller, { kind: "url", receiptUrl: link })).toEqual({
      bank: "telebirr",
      missing: null,
    });
    await expect(
      engine.prepare(caller, { kind: "reference", bank: "telebirr", transactionNumber: "??" }),
    ).rejects.toMatchObject({ errors: { transaction_number: [expect.any(String)] } });
  });

  it("finds the first receipt link among a message's links, or nothing", () => {
    const receipt = "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED";
    expect(engine.findReceiptLink(["https://t.me/telebirr", "https://evil.example/receipt/X", receipt])).toBe(
      receipt,
    );
    expect(engine.findReceiptLink(["https://t.me/telebirr", "not a url"])).toBeNull();
  });
});
