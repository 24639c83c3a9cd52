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
