import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBankHttpClient, parseOriginOverrides } from "../../src/banks/http.js";
import type { ReceiptClaim } from "../../src/banks/receipt-claim.js";
import { createBankAdapters } from "../../src/banks/registry.js";
import { type BankGateway, createBankGateway } from "../../src/engine/bank-gateway.js";
import { boundLookup } from "../../src/engine/deadline.js";
import { lookupAsRead, MAX_VARIANT_LOOKUPS } from "../../src/engine/misread.js";
import { createLogger } from "../../src/logger.js";
import { type Simulator, simulatedBank, startBanks } from "../support/simulator.js";

// A reference read from an image that the bank does not know: the engine asks for the spellings OCR itself
// weighed (the claim's alternatives) before the look-alike table's, against the telebirr imitation.

const adapters = createBankAdapters();
let sim: Simulator;
let gateway: BankGateway;
beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  gateway = createBankGateway(
    adapters,
    createBankHttpClient({ originOverrides: parseOriginOverrides(sim.overrides) }),
  );
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});

const known = simulatedBank("telebirr").examples.find((e) => e.reference === "DET8FJGUJ4");
if (!known) throw new Error("the telebirr imitation seeds DET8FJGUJ4");
/** Its 8 read as an X: no look-alike table takes an X for an 8. */
const MISREAD = "DETXFJGUJ4";

async function lookup(claimed: ReceiptClaim) {
  const bounds = boundLookup("telebirr", Date.now() + 20_000, []);
  try {
    return await lookupAsRead(
      gateway,
      adapters.telebirr,
      {
        bank: "telebirr",
        target: { transactionNumber: claimed.transactionNumber, account: null, token: null },
        expectedReceiver: null,
        expectedMayBePayer: false,
        accountNumber: null,
        sourceUrl: null,
        method: "receipt_ocr",
        claimed,
      },
      bounds,
      createLogger("silent"),
    );
  } finally {
    bounds.dispose();
  }
}

const claim = (alternatives: ReceiptClaim["alternatives"]): ReceiptClaim => ({
  bank: "telebirr",
  transactionNumber: MISREAD,
  accountNumber: null,
  shareUrl: null,
  receipt: { amount: 1100 },
  ...(alternatives && { alternatives }),
});

describe("a reference OCR misread, with the other characters it weighed", () => {
  it("is found as the spelling the bank knows among them, however unlike the glyph it chose", async () => {
    sim.resetCounts();
    const outcome = await lookup(
      claim([
        { at: 3, text: "B", margin: 4 },
        { at: 3, text: "8", margin: 9 },
        { at: 9, text: "A", margin: 30 },
      ]),
    );
    expect(outcome).toMatchObject({ kind: "found", reference: known.reference });
    // The read, then B (not known), then 8.
    expect(sim.requestCount("telebirr")).toBe(3);
  });

  it("is not found without them: the look-alike table alone has no 8 for an X", async () => {
    sim.resetCounts();
    const outcome = await lookup(claim(undefined));
    expect(outcome.kind).toBe("not_found");
    expect(sim.requestCount("telebirr")).toBeLessThanOrEqual(1 + MAX_VARIANT_LOOKUPS);
  });
});
