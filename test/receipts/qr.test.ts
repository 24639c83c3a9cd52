import { describe, expect, it } from "vitest";
import { renderQrReceipt } from "../../fakes/qr-images.js";
import { encryptBoaQr } from "../../src/banks/boa/qr.js";
import { DASHEN_APP_QR_MESSAGE } from "../../src/banks/dashen/qr.js";
import { createQrDecoder } from "../../src/receipts/qr/decoder.js";
import { createQrReceiptReader } from "../../src/receipts/qr/read-qr.js";

// A passphrase of the tests' own: the bank's real one is configuration (BANK_BOA_QR_KEY), never code.
const BOA_KEY = "test-passphrase-of-the-qr-tests";
const decoder = createQrDecoder();
const reader = createQrReceiptReader({ boaPassphrase: BOA_KEY });

const CBE_LINK = "https://mbreciept.cbe.com.et/v2-Lw8TqZ3vNc6RpXb2KmHd";
const telebirrCode = (text: string) =>
  Buffer.from(Buffer.from(text, "utf8").toString("hex")).toString("base64");
const BOA_FIELDS = [
  "1234567890123",
  "ABEBE KEBEDE",
  "1107.59",
  "FT26167ZVPCJ",
  "16/06/2026",
  "98765432",
  "SARA TADESSE",
];

describe("decoding QR codes in images", () => {
  it.each([
    ["clean PNG", {}],
    ["rotated 10°", { rotateDeg: 10 }],
    [
      "phone photo: blur, uneven light, noise, JPEG quality 50",
      { blurPx: 1.2, shadow: 0.35, noise: 10, format: "jpeg", quality: 50, rotateDeg: 3 },
    ],
    ["a tenth of the image", { qrShare: 0.1 }],
    ["WEBP", { format: "webp", quality: 70 }],
    ["transparent screenshot", { transparent: true }],
  ] as const)("%s at Telegram's 1280 px", async (_name, options) => {
    expect(await decoder.decode(await renderQrReceipt(CBE_LINK, options))).toContain(CBE_LINK);
  });

  it("finds both codes of an image, and a torn code is none", async () => {
    const two = await decoder.decode(
      await renderQrReceipt(CBE_LINK, { otherCode: "https://example.com/promo" }),
    );
    expect(two).toEqual(expect.arrayContaining([CBE_LINK, "https://example.com/promo"]));
    expect(await decoder.decode(await renderQrReceipt(CBE_LINK, { damage: 0.45 }))).toEqual([]);
  });

  it("gives up on a decode past its cap, and decodes again after", async () => {
    const image = await renderQrReceipt(CBE_LINK);
    const hasty = createQrDecoder({ timeoutMs: 1 });
    expect(await hasty.decode(image)).toEqual([]);
    expect(await decoder.decode(image)).toContain(CBE_LINK);
  });

  it("reads nothing from what is not an image, or claims a huge size", async () => {
    expect(await decoder.decode(Buffer.from("%PDF-1.4 not an image"))).toEqual([]);
    const bomb = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(
      bomb,
    );
    bomb.writeUInt32BE(30000, 16);
    bomb.writeUInt32BE(30000, 20);
    expect(await decoder.decode(bomb)).toEqual([]);
  });
});

describe("what each bank's code names", () => {
  it("CBE: the share link", async () => {
    const reading = await reader.read(await renderQrReceipt(CBE_LINK));
    expect(reading).toMatchObject({ kind: "claim", claim: { bank: "cbe", shareUrl: CBE_LINK } });
  });

  it("telebirr: base64 of hex of a text holding the invoice number", async () => {
    const code = telebirrCode('{"invoiceNo":"DFH51OFIED","payer":"2519****4025"}');
    const reading = await reader.read(await renderQrReceipt(code));
    expect(reading).toMatchObject({
      kind: "claim",
      claim: { bank: "telebirr", transactionNumber: "DFH51OFIED" },
    });
  });

  it("Amhara: bare JSON with the transaction id", async () => {
    const code = JSON.stringify({ transactionId: "FT262507XG9T", creditAccountNo: "ETB1000217529647" });
    const reading = await reader.read(await renderQrReceipt(code));
    expect(reading).toMatchObject({
      kind: "claim",
      claim: { bank: "amhara", transactionNumber: "FT262507XG9T" },
    });
  });

  it("BOA: the AES payload gives the reference, the payer's account suffix and the fields to hold against the bank", async () => {
    const reading = await reader.read(await renderQrReceipt(encryptBoaQr(BOA_KEY, BOA_FIELDS)));
    expect(reading).toMatchObject({
      kind: "claim",
      claim: {
        bank: "boa",
        transactionNumber: "FT26167ZVPCJ",
        accountNumber: "90123",
        receipt: { amount: 1107.59, payerName: "ABEBE KEBEDE", receiverName: "SARA TADESSE" },
      },
    });
  });

  it("BOA: without the passphrase, or with another one, a BOA code names nothing", async () => {
    const image = await renderQrReceipt(encryptBoaQr("another passphrase", BOA_FIELDS));
    expect(await reader.read(image)).toBeNull();
    const noKey = createQrReceiptReader();
    expect(await noKey.read(await renderQrReceipt(encryptBoaQr(BOA_KEY, BOA_FIELDS)))).toBeNull();
  });

  it("Dashen: the in-app token says what to send instead", async () => {
    const reading = await reader.read(await renderQrReceipt("superappreceipt_88123.a9F3kLq"));
    expect(reading).toEqual({ kind: "unusable", bank: "dashen", message: DASHEN_APP_QR_MESSAGE });
  });

  it("another code is ignored, and the receipt's code is still found beside it", async () => {
    expect(await reader.read(await renderQrReceipt("https://example.com/promo"))).toBeNull();
    const both = await renderQrReceipt(CBE_LINK, { otherCode: "WIFI:S:shop;T:WPA;P:secret;;" });
    expect(await reader.read(both)).toMatchObject({ kind: "claim", claim: { bank: "cbe" } });
  });
});
