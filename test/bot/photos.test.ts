import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photoSizesMessage } from "../../fakes/telegram.js";
import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";
import type { SimExample } from "../../src/simulator/types.js";
import { receiptPhotoSizesFor } from "../fixtures/photos/cases.js";
import type { PhotoKind, PhotoReceipt } from "../fixtures/photos/types.js";
import { type BotHarness, joinedStaff, nextReply, type Staff, startBotHarness } from "../support/bot.js";
import { simulatedBank } from "../support/simulator.js";

// A cashier forwards a screenshot of a receipt; Telegram delivers it as a photo at 90, 320, 800
// and 1280 px. For every bank, a simulated transaction drawn by the independent photo set's renderer
// (test/fixtures/photos) is confirmed from its largest size.

/**
 * The kind of image that carries what the bank's lookup needs: the SMS with its share link for the banks
 * looked up by link or whose receipt page does not print the account the lookup takes; the receipt page
 * for the others.
 */
const KIND: Record<BankCode, PhotoKind> = {
  cbe: "sms",
  telebirr: "screenshot",
  dashen: "screenshot",
  awash: "sms",
  boa: "sms",
  zemen: "sms",
  cbebirr: "screenshot",
  mpesa: "screenshot",
  sinqee: "screenshot",
  amhara: "screenshot",
};

/** The simulated transaction as the photo set's renderer takes it. */
function photoReceiptOf(bank: BankCode, example: SimExample): PhotoReceipt {
  const { receipt } = example;
  return {
    bank,
    reference: example.reference,
    ...(example.shareUrl ? { shareUrl: example.shareUrl } : {}),
    amount: receipt.amount,
    currency: "ETB",
    fees: { service: 0, vat: 0 },
    // CBE Birr's lookup takes the payer's phone, which its receipt prints in full.
    payer: { name: receipt.payerName, account: example.target.account ?? receipt.payerAccount },
    receiver: { name: receipt.receiverName, account: receipt.receiverAccount },
    dateTime: receipt.transactionDate.slice(0, 19),
    status: "Completed",
    smsSide: "debit",
  };
}

/**
 * The bank's completed simulated transaction whose reference has the fewest OCR look-alikes (0/O, 1/I/l, 8/B, 5/S,
 * 2/Z): this test is about the photo flow; misread references and their rescue are
 * test/api/misread-references.test.ts's and the photo set's.
 */
function plainest(examples: readonly SimExample[]): SimExample {
  const lookAlikes = (e: SimExample) =>
    (e.target.token ?? e.target.transactionNumber).replace(/[^0O1Il8B5S2Z]/g, "").length;
  const [first, ...rest] = examples.filter((e) => e.receipt.status === "completed");
  if (!first) throw new Error("a simulated bank without examples");
  return rest.reduce((best, e) => (lookAlikes(e) < lookAlikes(best) ? e : best), first);
}

let harness: BotHarness;
let staff: Staff;
beforeAll(async () => {
  harness = await startBotHarness("polling");
  staff = await joinedStaff(harness, { quota: 1000 });
});
afterAll(() => harness?.close());

describe("a receipt photo as Telegram delivers it", () => {
  it.each(BANK_CODES)("%s: confirmed from the 1280 px size", async (bank) => {
    const example = plainest(simulatedBank(bank).examples);
    const sizes = (await receiptPhotoSizesFor(photoReceiptOf(bank, example), KIND[bank])).map((size) => ({
      ...size,
      file: harness.telegram.addFile(size.image, { extension: "jpg" }),
    }));
    expect(Math.max(sizes.at(-1)?.width ?? 0, sizes.at(-1)?.height ?? 0)).toBe(1280);
    const after = harness.telegram.calls.length;
    await harness.send(photoSizesMessage(staff.cashier, sizes));
    const card = await nextReply(harness, staff.cashier, /Payment confirmed|⚠️|❌/, after, 50_000);
    expect(card.payload.text).toContain("Payment confirmed");
    // The bot downloads the largest size only.
    const largest = sizes.at(-1)?.file.file_id;
    const fetched = harness.telegram.callsOf("getFile").slice(-1)[0]?.payload.file_id;
    expect(fetched).toBe(largest);
  });
});
