import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTO_DEGRADATION, renderReceiptImage } from "../../fakes/receipt-images.js";
import type { OcrEngine } from "../../src/receipts/ocr/index.js";
import { createTenant, startTestApi, type TestApi } from "../support/api.js";
import { sharedOcrEngine } from "../support/ocr.js";
import { boaScreen, firstExample, type Simulator, startBanks } from "../support/simulator.js";
import { leftoverUploads, postMultipart } from "../support/uploads.js";

// SERVER_OCR=true: an image of a receipt, sent without receipt_text, is read by the server's OCR.
let api: TestApi;
let sim: Simulator;
let ocr: OcrEngine;
beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  ocr = sharedOcrEngine();
  api = await startTestApi({ banks: started.banks, ocr });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});

describe("verification of a receipt image by server OCR", () => {
  it.each([
    ["a screenshot", { width: 720, fontSize: 22 }],
    ["a photo", { width: 1200, fontSize: 27, ...PHOTO_DEGRADATION }],
  ] as const)("verifies %s of a BOA receipt", async (_name, options) => {
    const owner = await createTenant(api.db);
    const image = await renderReceiptImage(boaScreen(), options);
    const response = await postMultipart(api.url, "/verify", {
      key: owner.key,
      // BOA's lookup needs the last 5 digits of the account the bank's SMS went to.
      fields: { account_number: firstExample("boa").target.account ?? "" },
      files: [{ field: "receipt_file", bytes: image, name: "receipt.jpg", type: "image/jpeg" }],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      data: {
        bank: "boa",
        transaction_number: firstExample("boa").reference,
        verification_method: "receipt_ocr",
      },
    });
    expect(await leftoverUploads()).toEqual([]);
  });

  it("never answers a bare not found for a reference read from a photo, even one made of look-alikes", async () => {
    const owner = await createTenant(api.db);
    // Unknown to the bank, and nearly every character has a look-alike (8/B, 0/O, 5/S, 1/I, 2/Z).
    const reference = "DB8O0S5I1Z";
    const image = await renderReceiptImage(
      [
        "telebirr",
        "Payer Name\tAbebe Kebede",
        "transaction status\tCompleted",
        `Invoice No.\t${reference}`,
        "Payment date\t18-07-2025 19:58:20",
        "Settled Amount\t4,321.00 Birr",
      ],
      { width: 1200, fontSize: 27, ...PHOTO_DEGRADATION },
    );
    const response = await postMultipart(api.url, "/verify", {
      key: owner.key,
      files: [{ field: "receipt_file", bytes: image, name: "receipt.jpg", type: "image/jpeg" }],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(404);
    const read = response.body.data.transaction_number;
    expect(response.body).toMatchObject({
      success: false,
      exists: false,
      message: expect.stringMatching(
        /^The reference read from the image \(.+\) was not found at the bank\. It may have been misread/,
      ),
      data: { bank: "telebirr", verification_method: "receipt_ocr" },
      read_from_image: { transaction_number: read, ocr: "server", may_be_misread: true },
    });
    expect(response.body.message).toContain(`(${read})`);
  });

  it("answers 422 for an image it cannot decode", async () => {
    const broken = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64, 7)]);
    const response = await postMultipart(api.url, "/verify", {
      key: (await createTenant(api.db)).key,
      files: [{ field: "receipt_file", bytes: broken, name: "x.png", type: "image/png" }],
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(["receipt_file"]);
  });
});
