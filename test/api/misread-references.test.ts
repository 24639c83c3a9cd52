import { createCanvas } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { MAX_VARIANT_LOOKUPS } from "../../src/engine/misread.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { type Simulator, simulatedBank, startBanks } from "../support/simulator.js";
import { postMultipart } from "../support/uploads.js";

// A reference OCR misread (an 8 read as B) is not found as read; the engine asks the
// bank for its most likely look-alikes, bounded, and takes one only when its receipt agrees with the image.

let api: TestApi;
let sim: Simulator;
beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  api = await startTestApi({ banks: started.banks });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});

const telebirr = simulatedBank("telebirr").examples.find((e) => e.reference === "DET8FJGUJ4");
if (!telebirr) throw new Error("the telebirr imitation seeds DET8FJGUJ4");
const MISREAD = "DETBFJGUJ4";
const unknownToo = "DAB7QX2LMN";

/** A photo's bytes: the text below stands for what the caller's OCR read on it (receipt_image). */
async function photo(): Promise<Uint8Array> {
  const canvas = createCanvas(40, 40);
  canvas.getContext("2d").fillRect(5, 5, 10, 10);
  return canvas.encode("png");
}

const receiptText = (reference: string, amount: string) =>
  [
    "telebirr",
    `Payer Name\t${telebirr.receipt.payerName}`,
    "transaction status\tCompleted",
    `Invoice No.\t${reference}`,
    "Payment date\t18-07-2025 19:58:20",
    `Settled Amount\t${amount} Birr`,
  ].join("\n");

async function verify(owner: Tenant, text: string) {
  return postMultipart(api.url, "/verify", {
    key: owner.key,
    fields: { receipt_text: text },
    files: [{ field: "receipt_file", bytes: await photo(), name: "photo.png", type: "image/png" }],
  });
}

async function quotaUsed(owner: Tenant): Promise<number> {
  const usage = await api.db.orm.em.fork().find(QuotaUsageSchema, { business: owner.businessId });
  return usage.reduce((sum, row) => sum + row.count, 0);
}

describe("a reference misread on an image", () => {
  it("is confirmed as the look-alike the bank knows, for one quota unit, and counts once", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    const response = await verify(owner, receiptText(MISREAD, "1100.00"));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      data: { transaction_number: telebirr.reference, verification_method: "receipt_image" },
    });
    expect(sim.requestCount("telebirr")).toBeLessThanOrEqual(1 + MAX_VARIANT_LOOKUPS);
    expect(await quotaUsed(owner)).toBe(1);

    // The same misread photo again is the same receipt: a duplicate, not a second confirmation.
    const again = await verify(owner, receiptText(MISREAD, "1100.00"));
    expect(again.body).toMatchObject({ success: false, duplicate: true });
  });

  it("is not found as read when the look-alike's receipt disagrees with the amount read, and says so", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    const response = await verify(owner, receiptText(MISREAD, "1,250.00"));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      success: false,
      exists: false,
      duplicate: false,
      message: `The reference read from the image (${MISREAD}) was not found at the bank. It may have been misread: send the receipt link, the SMS text or the reference typed.`,
      data: { transaction_number: MISREAD, verification_id: null, receipt: {} },
      read_from_image: { transaction_number: MISREAD, ocr: "caller", may_be_misread: true },
    });
    expect(await quotaUsed(owner)).toBe(1);
    // The record keeps the same words: the bot's /history, read later, does not say "not found" either.
    const record = await api.db.orm.em.fork().findOneOrFail(VerificationSchema, { branch: owner.branchId });
    expect(record.message).toBe(response.body.message);
  });

  it("asks at most 4 more times for a reference that has no known look-alike", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    const response = await verify(owner, receiptText(unknownToo, "50.00"));
    expect(response.status).toBe(404);
    expect(sim.requestCount("telebirr")).toBeGreaterThan(1);
    expect(sim.requestCount("telebirr")).toBeLessThanOrEqual(1 + MAX_VARIANT_LOOKUPS);
  });

  it("is taken as read when the reference did not come from an image", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    const response = await postMultipart(api.url, "/verify", {
      key: owner.key,
      fields: { receipt_text: receiptText(MISREAD, "1100.00") },
      files: [],
    });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe("Transaction not found.");
    expect(response.body).not.toHaveProperty("read_from_image");
    expect(sim.requestCount("telebirr")).toBe(1);
  });
});

describe("a link token read from an image with a character too many or too few", () => {
  const sms = (token: string) =>
    "Dear Abebe your Account 1*****1758 has been debited with ETB 500.00. " +
    `Thanks for Banking with CBE. https://mbreciept.cbe.com.et/${token}`;

  it("is refused with a 422 that asks for the link, never looked up", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    for (const token of ["v2-hfHCxGvIhvqVMTB7hylLx", "v2-hfHCxGvIhvqVMTB7hyl"]) {
      const response = await verify(owner, sms(token));
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.errors.receipt_file).toEqual([
        "The Commercial Bank of Ethiopia receipt link on the image could not be read whole. Send the link itself, the SMS text or the transaction reference.",
      ]);
    }
    expect(sim.requestCount("cbe")).toBe(0);
    expect(await quotaUsed(owner)).toBe(0);
  });

  it("and a CBE reference of which OCR kept only a fragment, likewise", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    // The label column was read; of the value FT26073IHGAZ only "T2607" came out whole.
    const page = [
      "Commercial Bank of Ethiopia",
      "VAT Invoice / Customer Receipt",
      "Reference No. (VAT Invoice No)\tT2607 MNGAZ",
      "Transferred Amount\t34,806.35 ETB",
    ].join("\n");
    const response = await verify(owner, page);
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.errors.receipt_file).toEqual([
      "The Commercial Bank of Ethiopia reference on the image could not be read whole. Send the link itself, the SMS text or the transaction reference.",
    ]);
    expect(sim.requestCount("cbe")).toBe(0);
    expect(await quotaUsed(owner)).toBe(0);
  });

  it("and a reference one character too long, for a bank whose references all have one shape", async () => {
    const owner = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    const misreads = [
      {
        bank: "M-Pesa Ethiopia",
        text: "Dear Abebe, you have sent 1,250.00 Birr to SARA 251714***707 on 24/7/26 at 11:53 AM. Transaction number UGO4D2CODAX. Transaction fee 0.00 Birr. M-PESA",
      },
      {
        bank: "Bank of Abyssinia",
        text: "Bank of Abyssinia\nTransaction Reference\tFT26205S8BO00\nTransferred Amount\tETB 30,124.20",
      },
    ];
    for (const { bank, text } of misreads) {
      const response = await verify(owner, text);
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.errors.receipt_file).toEqual([
        `The ${bank} reference on the image could not be read whole. Send the link itself, the SMS text or the transaction reference.`,
      ]);
    }
    expect(sim.requestCount("mpesa") + sim.requestCount("boa")).toBe(0);
    expect(await quotaUsed(owner)).toBe(0);
  });

  it("is taken as written when it is the text itself, not an image's", async () => {
    const response = await api.request("POST", "/verify/parse-receipt", {
      key: (await createTenant(api.db)).key,
      json: { receipt_text: sms("v2-hfHCxGvIhvqVMTB7hylLx") },
    });
    expect(response.status).toBe(200);
    expect(response.body.transaction_number).toBe("v2-hfHCxGvIhvqVMTB7hylLx");
  });
});
