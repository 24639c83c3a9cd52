import PDFDocument from "pdfkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderQrReceipt } from "../../fakes/qr-images.js";
import { encryptBoaQr } from "../../src/banks/boa/qr.js";
import { LEGACY_RECEIPTS, renderLegacyPdf } from "../../src/banks/cbe/imitation.js";
import { DASHEN_APP_QR_MESSAGE } from "../../src/banks/dashen/qr.js";
import { QuotaUsageSchema } from "../../src/db/entities/index.js";
import { qrDisagrees } from "../../src/receipts/reader.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { firstExample, type Simulator, startBanks } from "../support/simulator.js";
import { leftoverUploads, postMultipart } from "../support/uploads.js";

/** A phone photo at Telegram's size: tilted, slightly blurred, uneven light, JPEG quality 50. */
const PHOTO = { rotateDeg: 4, blurPx: 1, shadow: 0.3, noise: 8, format: "jpeg", quality: 50 } as const;
const BOA_KEY = "the-api-tests-own-boa-passphrase";

let api: TestApi;
let sim: Simulator;
let tenant: Tenant;
let banks: Awaited<ReturnType<typeof startBanks>>["banks"];
beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  banks = started.banks;
  api = await startTestApi({ banks: started.banks });
  tenant = await createTenant(api.db, { quota: 1000 });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});
afterEach(async () => {
  expect(await leftoverUploads(), "temporary upload files are removed").toEqual([]);
});

const cbeLegacy = LEGACY_RECEIPTS.find((r) => r.reference === "FT26140P01YB");
if (!cbeLegacy) throw new Error("the CBE simulator seeds FT26140P01YB");

/** A receipt PDF exactly as the bank's lookup serves it. */
async function bankPdf(path: string): Promise<Uint8Array> {
  const response = await fetch(`${sim.url}/${path}`);
  expect(response.headers.get("content-type")).toContain("pdf");
  return new Uint8Array(await response.arrayBuffer());
}

const upload = (path: string, fields: Record<string, string>, bytes?: Uint8Array, owner = tenant) =>
  postMultipart(api.url, path, {
    key: owner.key,
    fields,
    files: bytes ? [{ field: "receipt_file", bytes, name: "receipt.pdf", type: "application/pdf" }] : [],
  });

const invalid = (field: string, message: string) => ({
  message: "The given data was invalid.",
  errors: { [field]: [message] },
});

describe("POST /verify with a receipt image's QR code (no SERVER_OCR, no text)", () => {
  const image = async (owner: Tenant, content: string) =>
    postMultipart(api.url, "/verify", {
      key: owner.key,
      fields: {},
      files: [
        {
          field: "receipt_file",
          bytes: await renderQrReceipt(content, PHOTO),
          name: "photo.jpg",
          type: "image/jpeg",
        },
      ],
    });

  it.each([
    ["cbe", () => firstExample("cbe").shareUrl ?? ""],
    [
      "amhara",
      () => JSON.stringify({ transactionId: firstExample("amhara").reference, creditAccountNo: "ETB0001" }),
    ],
    [
      "telebirr",
      () =>
        Buffer.from(Buffer.from(`invoice ${firstExample("telebirr").reference}`).toString("hex")).toString(
          "base64",
        ),
    ],
  ])("verifies a phone photo of a %s receipt's QR code", async (bank, content) => {
    const owner = await createTenant(api.db);
    const response = await image(owner, content());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, data: { bank, verification_method: "receipt_qr" } });
  });

  it("BOA: a code made with the configured passphrase verifies; a forged amount never confirms", async () => {
    const example = firstExample("boa");
    const fields = (amount: number) => [
      `100000000${example.target.account}`,
      example.receipt.payerName,
      String(amount),
      example.reference,
      "24/03/2026",
      example.receipt.receiverAccount,
      example.receipt.receiverName,
    ];
    const boaApi = await startTestApi({ banks: { ...banks, boaQrKey: BOA_KEY } });
    const owner = await createTenant(boaApi.db);
    try {
      const send = async (amount: number) =>
        postMultipart(boaApi.url, "/verify", {
          key: owner.key,
          fields: {},
          files: [
            {
              field: "receipt_file",
              bytes: await renderQrReceipt(encryptBoaQr(BOA_KEY, fields(amount)), PHOTO),
              name: "slip.jpg",
              type: "image/jpeg",
            },
          ],
        });
      const forged = await send(example.receipt.amount + 1000);
      expect(forged.body).toMatchObject({
        success: false,
        message: "The receipt does not match the bank's record: amount differs.",
      });
      const genuine = await send(example.receipt.amount);
      expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
      expect(genuine.body).toMatchObject({
        success: true,
        data: { bank: "boa", verification_method: "receipt_qr" },
      });
    } finally {
      await boaApi.close();
    }
  });

  it("the caller's text adds the fields of the same receipt; a text naming another transaction is refused", async () => {
    const example = firstExample("telebirr");
    const code = Buffer.from(Buffer.from(`invoice ${example.reference}`).toString("hex")).toString("base64");
    const bytes = await renderQrReceipt(code, PHOTO);
    const withText = (path: string, reference: string) =>
      postMultipart(api.url, path, {
        key: tenant.key,
        fields: {
          receipt_text: `telebirr\nInvoice No. ${reference}\nSettled Amount ${example.receipt.amount} Birr`,
        },
        files: [{ field: "receipt_file", bytes, name: "photo.jpg", type: "image/jpeg" }],
      });
    const parsed = await withText("/verify/parse-receipt", example.reference);
    expect(parsed.status, JSON.stringify(parsed.body)).toBe(200);
    expect(parsed.body).toMatchObject({
      bank: "telebirr",
      transaction_number: example.reference,
      receipt: { amount: example.receipt.amount },
    });
    const other = await withText("/verify", "DET8FJGUJ4");
    expect(other.status).toBe(422);
    expect(other.body).toEqual(invalid("receipt_file", qrDisagrees(example.reference, "DET8FJGUJ4")));
  });

  it("a scanned PDF with no text: the QR code drawn on its page", async () => {
    const owner = await createTenant(api.db);
    const png = await renderQrReceipt(firstExample("cbe").shareUrl ?? "", { width: 900 });
    const pdf = await new Promise<Uint8Array>((resolve) => {
      const doc = new PDFDocument({ size: "A4", margin: 0 });
      const chunks: Buffer[] = [];
      doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
      doc.image(png, 0, 0, { width: 595 });
      doc.end();
    });
    const response = await upload("/verify", {}, pdf, owner);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      data: { bank: "cbe", verification_method: "receipt_qr" },
    });
  });

  it("Dashen's in-app code: 422 saying what to send instead", async () => {
    const response = await image(tenant, "superappreceipt_88123.a9F3kLq");
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid("receipt_file", DASHEN_APP_QR_MESSAGE));
  });
});

describe("POST /verify with a receipt file", () => {
  it("verifies a bank's PDF receipt end to end", async () => {
    const owner = await createTenant(api.db);
    const pdf = await bankPdf(`apps.cbe.com.et:100/?id=FT26140P01YB60536171`);
    const response = await upload("/verify", { account_number: cbeLegacy.fullAccount }, pdf, owner);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      duplicate: false,
      data: {
        bank: "cbe",
        transaction_number: "FT26140P01YB",
        verification_method: "receipt_pdf",
        receipt: { amount: 20000, receiver_name: "SAMUEL ADANE ZELEKE" },
      },
    });
  });

  it("refuses a doctored PDF whose amount differs from the bank's", async () => {
    const owner = await createTenant(api.db);
    const doctored = await renderLegacyPdf({
      ...cbeLegacy,
      fields: { ...cbeLegacy.fields, amount: "200,000.00 ETB", total: "200,011.50 ETB" },
    });
    const response = await upload("/verify", { account_number: cbeLegacy.fullAccount }, doctored, owner);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: false,
      exists: true,
      duplicate: false,
      message: "The receipt does not match the bank's record: amount differs.",
      data: { receipt: { amount: 20000 } },
    });
  });

  it("reads an image with the caller's OCR text", async () => {
    const owner = await createTenant(api.db);
    const example = firstExample("telebirr");
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const response = await postMultipart(api.url, "/verify", {
      key: owner.key,
      fields: {
        receipt_text: `telebirr receipt\nInvoice No. ${example.reference}\nSettled Amount ${example.receipt.amount} Birr`,
      },
      files: [{ field: "receipt_file", bytes: png, name: "photo.png", type: "image/png" }],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, data: { verification_method: "receipt_image" } });
  });

  it("requires receipt_text for an image when the server does no OCR", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const response = await postMultipart(api.url, "/verify", {
      key: tenant.key,
      files: [{ field: "receipt_file", bytes: png, name: "photo.png", type: "image/png" }],
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      invalid("receipt_text", "The receipt text field is required when receipt file is an image."),
    );
  });
});

describe("bad receipt files", () => {
  it("refuses a file over 10 MB without reading it all", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(Buffer.from("%PDF-1.4\n"));
    const response = await upload("/verify", {}, big);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      invalid("receipt_file", "The receipt file may not be greater than 10240 kilobytes."),
    );
  });

  it.each([
    ["a text file named .pdf", Buffer.from("this is not a receipt")],
    ["an executable", Buffer.from("7f454c46020101000000", "hex")],
    ["a GIF", Buffer.from("GIF89a\x01\x00\x01\x00")],
  ])("refuses %s by its bytes", async (_name, bytes) => {
    const response = await upload("/verify", {}, bytes);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      invalid("receipt_file", "The receipt file must be a file of type: pdf, jpg, jpeg, png, webp."),
    );
  });

  it("refuses a broken PDF and a password-protected one", async () => {
    const broken = await upload(
      "/verify",
      {},
      Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >>\ntrailer\n%%EOF"),
    );
    expect(broken.status).toBe(422);
    expect(broken.body.errors.receipt_file[0]).toMatch(/PDF/);
    const locked = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ userPassword: "secret", ownerPassword: "owner" });
      const chunks: Buffer[] = [];
      doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      doc.on("end", () => resolve(Buffer.concat(chunks)));
      doc.text("Transferred Amount 20,000.00 ETB");
      doc.end();
    });
    const response = await upload("/verify", {}, locked);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid("receipt_file", "The PDF is password-protected."));
  });

  it("refuses an empty file, two files and a file under another name", async () => {
    const empty = await upload("/verify", {}, new Uint8Array(0));
    expect(empty.status).toBe(422);
    const pdf = await bankPdf(`apps.cbe.com.et:100/?id=FT26140P01YB60536171`);
    const two = await postMultipart(api.url, "/verify", {
      key: tenant.key,
      files: [
        { field: "receipt_file", bytes: pdf },
        { field: "receipt_file", bytes: pdf },
      ],
    });
    expect(two.status).toBe(422);
    expect(two.body.errors.receipt_file).toEqual(["Only one receipt file may be uploaded."]);
    const renamed = await postMultipart(api.url, "/verify", {
      key: tenant.key,
      files: [{ field: "file", bytes: pdf }],
    });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors).toEqual({ file: ["The file field is prohibited."] });
  });

  it("stays healthy after bad files", async () => {
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
  });
});

describe("POST /verify with receipt_text", () => {
  it("verifies a bank SMS pasted as text", async () => {
    const owner = await createTenant(api.db);
    const example = firstExample("telebirr");
    const sms = `You have transferred ETB ${example.receipt.amount.toFixed(2)} to ${example.receipt.receiverName} (2519****4025) on 17/06/2026 18:14:15. Your transaction number is ${example.reference}. Your current balance is ETB 1,000.00. https://transactioninfo.ethiotelecom.et/receipt/${example.reference}`;
    const response = await api.request("POST", "/verify", { key: owner.key, json: { receipt_text: sms } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      data: { bank: "telebirr", verification_method: "receipt_text" },
    });
  });

  it("asks for the bank when the text is only a bare FT reference", async () => {
    const response = await api.request("POST", "/verify", {
      key: tenant.key,
      json: { receipt_text: "Ref: FT26140P01YB" },
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(["bank"]);
  });

  it("refuses text over 50,000 characters", async () => {
    const response = await postMultipart(api.url, "/verify", {
      key: tenant.key,
      fields: { receipt_text: "a".repeat(50_001) },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      invalid("receipt_text", "The receipt text may not be greater than 50000 characters."),
    );
  });
});

describe("POST /verify/parse-receipt", () => {
  it("tells what a PDF claims without asking the bank or using quota", async () => {
    const owner = await createTenant(api.db);
    const pdf = await bankPdf(`apps.cbe.com.et:100/?id=FT26140P01YB60536171`);
    sim.resetCounts();
    const response = await upload("/verify/parse-receipt", {}, pdf, owner);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      bank: "cbe",
      bank_name: "Commercial Bank of Ethiopia",
      transaction_number: "FT26140P01YB",
      requires_account_number: true,
      account_digits: 8,
      receipt: {
        amount: 20000,
        currency: "ETB",
        payer_name: "Mr Biruk Tadesse Lemma",
        transaction_date: "2026-05-20T19:29:00+03:00",
      },
    });
    expect(sim.requestCount("cbe")).toBe(0);
    expect(await api.db.orm.em.fork().count(QuotaUsageSchema, { business: owner.businessId })).toBe(0);
  });

  it("honours the bank hint", async () => {
    const response = await api.request("POST", "/verify/parse-receipt", {
      key: tenant.key,
      json: { receipt_text: "Transaction ID: FT26140P01YB", bank: "amhara" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      bank: "amhara",
      transaction_number: "FT26140P01YB",
      requires_account_number: false,
    });
  });

  it.each([
    [
      "awash",
      "Awash Bank Share company\nTransfer successful\nTransaction Date : 2026-06-07 11:22:03\nTransaction Type : Send To Bank\nAmount : 3,000 ETB\nTransaction ID : 260607112275735",
      "260607112275735",
    ],
    [
      "zemen",
      "Zemen Bank\nPayer name: SELAM TESFAYE\nReference No: 108ATWR2518000QK\nTransaction status: SUCCESS\nSettled Amount ETB 1,600.00",
      "108ATWR2518000QK",
    ],
  ])(
    "reads a %s receipt without its link, and /verify says what is needed instead",
    async (bank, text, reference) => {
      const parsed = await api.request("POST", "/verify/parse-receipt", {
        key: tenant.key,
        json: { receipt_text: text },
      });
      expect(parsed.status, JSON.stringify(parsed.body)).toBe(200);
      expect(parsed.body).toMatchObject({ bank, transaction_number: reference });
      const verified = await api.request("POST", "/verify", {
        key: tenant.key,
        json: { receipt_text: text },
      });
      expect(verified.status).toBe(422);
      const [message] = verified.body.errors.receipt_text;
      expect(message).toMatch(/link/);
      expect(message).not.toMatch(/was found/);
    },
  );

  it.each([
    ["zemen", "Zemen Bank", "Reference No:"],
    ["awash", "Awash Bank", "Transaction ID:"],
  ] as const)(
    "answers a %s text's own printed reference, and its link apart, which /verify looks it up by",
    async (bank, name, label) => {
      const example = firstExample(bank);
      const text = `${name}\n${label} ${example.reference}\nReceipt: ${example.shareUrl}`;
      const parsed = await api.request("POST", "/verify/parse-receipt", {
        key: tenant.key,
        json: { receipt_text: text },
      });
      expect(parsed.status, JSON.stringify(parsed.body)).toBe(200);
      expect(parsed.body).toMatchObject({
        bank,
        transaction_number: example.reference,
        source_url: example.shareUrl,
      });
      const verified = await api.request("POST", "/verify", {
        key: tenant.key,
        json: { receipt_text: text },
      });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      expect(verified.body.data.transaction_number).toBe(example.reference);
    },
  );

  it("reads a receipt whose printed reference no lookup takes, and /verify says why", async () => {
    const text =
      "Dashen Bank: Account ending in 1234 credited with ETB 50.00 on 21-08-2026. Ref: DSH2026A77. Balance ETB 90.00.";
    const parsed = await api.request("POST", "/verify/parse-receipt", {
      key: tenant.key,
      json: { receipt_text: text },
    });
    expect(parsed.status, JSON.stringify(parsed.body)).toBe(200);
    expect(parsed.body).toMatchObject({
      bank: "dashen",
      transaction_number: "DSH2026A77",
      receipt: { amount: 50 },
    });
    const verified = await api.request("POST", "/verify", { key: tenant.key, json: { receipt_text: text } });
    expect(verified.status).toBe(422);
    const [message] = verified.body.errors.receipt_text;
    expect(message).toMatch(/Dashen Bank/);
    expect(message).not.toMatch(/was found/);
  });

  it("needs a file or text", async () => {
    const response = await api.request("POST", "/verify/parse-receipt", { key: tenant.key, json: {} });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(["receipt_file", "receipt_text"]);
  });
});
