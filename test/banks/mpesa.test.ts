import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import {
  createMpesaAdapter,
  parseMpesaReceiptText,
  readMpesaReceiptText,
} from "../../src/banks/mpesa/adapter.js";
import { simulatedMpesa } from "../../src/banks/mpesa/imitation.js";
import type { BankResponse } from "../../src/banks/types.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { describeBankContract } from "./contract.js";

describeBankContract({
  adapter: (network) => createMpesaAdapter({ network }),
  bank: simulatedMpesa,
  shareUrls: [
    {
      url: "https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA",
      expected: { transactionNumber: "UGO4D2CODA", accountNumber: null, token: null },
    },
    {
      url: "https://m-pesabusiness.safaricom.et/api/receipt/getReceipt?trxNo=UFS98HOPQJ",
      expected: { transactionNumber: "UFS98HOPQJ", accountNumber: null, token: null },
    },
    {
      // Paths and the query name typed or autocorrected in another case.
      url: "https://m-pesabusiness.safaricom.et/Receipt/ugo4d2coda",
      expected: { transactionNumber: "UGO4D2CODA", accountNumber: null, token: null },
    },
    {
      url: "https://m-pesabusiness.safaricom.et/api/receipt/getreceipt?trxno=UFS98HOPQJ",
      expected: { transactionNumber: "UFS98HOPQJ", accountNumber: null, token: null },
    },
  ],
  foreignUrls: [
    "https://evil.example/receipt/UGO4D2CODA",
    "https://safaricom.et/receipt/UGO4D2CODA",
    "https://m-pesabusiness.safaricom.et/",
    "https://m-pesabusiness.safaricom.et/api/receipt/getReceipt",
    "https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA/extra",
  ],
  invalidTargets: [
    { transactionNumber: "UGO4D2COD", account: null, token: null },
    { transactionNumber: "", account: null, token: null },
    { transactionNumber: "2517144027", account: null, token: null },
    { transactionNumber: "UGO4D2-ODA", account: null, token: null },
  ],
});

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/banks/mpesa/${name}`, import.meta.url), "utf8");
const json = (payload: unknown, status = 200): BankResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload)),
});
const target = { transactionNumber: "UGO4D2CODA", account: null, token: null };

describe("M-Pesa receipt PDF text", () => {
  it("reads bilingual labels with values below them and the fees printed before their labels", () => {
    expect(parseMpesaReceiptText(fixture("bilingual-fees-first.txt"))).toEqual({
      status: "completed",
      transactionType: "Send Money",
      // TOTAL 1,003.45 minus SERVICE FEE 3.00 and 15% VAT 0.45.
      amount: 1000,
      currency: "ETB",
      transactionDate: "2026-07-24T11:53:57+03:00",
      payerName: "YONAS TADESSE GEBRE",
      payerAccount: "251712480315",
      receiverName: "TESFAYE ADARE WELDEKIDAN",
      receiverAccount: "251714302707",
      description: null,
    });
  });

  it("reads labels glued to their values, and a merchant whose name starts with TOTAL", () => {
    expect(parseMpesaReceiptText(fixture("glued.txt"))).toEqual({
      status: "completed",
      transactionType: "Pay Merchant",
      amount: 5,
      currency: "ETB",
      transactionDate: "2026-06-28T19:04:12+03:00",
      payerName: "ABEBE KEBEDE",
      payerAccount: "251712480315",
      receiverName: "TOTAL ETHIOPIA SERVICE STATION",
      receiverAccount: "5104417",
      description: null,
    });
  });

  it("ignores Amharic halves that a font without Ethiopic glyphs turned into lone characters", () => {
    expect(parseMpesaReceiptText(fixture("mangled-amharic.txt"))).toMatchObject({
      amount: 2,
      payerName: "YONAS TADESSE GEBRE",
      receiverName: "TESFAYE ADARE WELDEKIDAN",
      receiverAccount: "251714302707",
    });
  });

  it("takes TOTAL as the amount when no fee is printed", () => {
    const text = "PAYER NAME A B\nRECEIVER NAME C D\n2026-01-02 03:04:05\nTOTAL 1,250.00";
    expect(parseMpesaReceiptText(text)).toMatchObject({ amount: 1250, transactionType: "" });
  });

  it("takes a printed AMOUNT line as it is, and reads a 'VAT (15%)' spelling", () => {
    const text = "2026-01-02 03:04:05\nAMOUNT 100.00\nSERVICE FEE 1.00\nVAT (15%) 0.15\nTOTAL AMOUNT 101.15";
    expect(parseMpesaReceiptText(text)).toMatchObject({ amount: 100 });
    expect(parseMpesaReceiptText(text.replace("AMOUNT 100.00\n", ""))).toMatchObject({ amount: 100 });
  });

  it("fails with ReceiptFormatError without a TOTAL, a date, or with a fee label but no figure", () => {
    const text = fixture("glued.txt");
    expect(() => parseMpesaReceiptText(text.replace("TOTAL5.00", ""))).toThrow(ReceiptFormatError);
    expect(() => parseMpesaReceiptText(text.replace("2026-06-28 19:04:12", ""))).toThrow(ReceiptFormatError);
    expect(() => parseMpesaReceiptText(text.replace("SERVICE FEE0.00", "SERVICE FEE"))).toThrow(
      ReceiptFormatError,
    );
  });
});

describe("M-Pesa adapter", () => {
  const adapter = createMpesaAdapter();
  const pdfBase64 = async () =>
    (
      await renderPdf((doc) => {
        doc.text("Send Money 2026-07-24 11:53:57 EAT");
        doc.text("PAYER NAME YONAS TADESSE GEBRE");
        doc.text("RECEIVER NAME TESFAYE ADARE WELDEKIDAN");
        doc.text("TOTAL 2.00");
      })
    ).toString("base64");

  it("decodes base64Data (also as a data: URI, with a numeric responseCode)", async () => {
    const base64Data = `data:application/pdf;base64,${await pdfBase64()}`;
    const outcome = await adapter.parseResponse(
      json({ responseCode: 0, responseDescription: "Success", base64Data }),
      target,
    );
    expect(outcome).toMatchObject({
      kind: "found",
      receipt: { amount: 2, receiverName: "TESFAYE ADARE WELDEKIDAN" },
      // No TRANSACTION ID on this receipt: the number asked for stands.
      reference: "UGO4D2CODA",
    });
  });

  it("reads a PDF whose %PDF- header does not open the decoded bytes", async () => {
    const pdf = Buffer.from(await pdfBase64(), "base64");
    const base64Data = Buffer.concat([Buffer.from("\r\n"), pdf]).toString("base64");
    await expect(
      adapter.parseResponse(json({ responseCode: "0", base64Data }), target),
    ).resolves.toMatchObject({
      kind: "found",
      receipt: { amount: 2 },
    });
  });

  it("reports a non-zero responseCode as not found", async () => {
    await expect(adapter.parseResponse(json(fixture("not-found.json")), target)).resolves.toEqual({
      kind: "not_found",
    });
    await expect(
      adapter.parseResponse(json({ responseCode: "404", responseDescription: "No data" }), target),
    ).resolves.toEqual({ kind: "not_found" });
  });

  it("throws ReceiptFormatError for answers it cannot read", async () => {
    const unreadable = [
      json("<html>Access denied</html>", 403),
      json("not json"),
      json({ responseDescription: "Success" }),
      json({ responseCode: "0", responseDescription: "Success" }),
      json({ responseCode: "0", base64Data: Buffer.from("hello").toString("base64") }),
      json({ responseCode: "0", base64Data: Buffer.from("%PDF-1.7 broken").toString("base64") }),
    ];
    for (const response of unreadable) {
      await expect(adapter.parseResponse(response, target)).rejects.toBeInstanceOf(ReceiptFormatError);
    }
  });

  it("throws BankUnavailableError on 5xx", async () => {
    await expect(adapter.parseResponse(json("Service Unavailable", 503), target)).rejects.toBeInstanceOf(
      BankUnavailableError,
    );
  });

  it("calls the data API with the Referer the site sends", () => {
    const request = adapter.buildRequest({ transactionNumber: "UGO4D2CODA", account: null, token: null });
    expect(request).toMatchObject({
      url: "https://m-pesabusiness.safaricom.et/api/receipt/getReceipt?trxNo=UGO4D2CODA",
      method: "GET",
      headers: {
        Referer: "https://m-pesabusiness.safaricom.et/",
        Accept: "application/json, text/plain, */*",
      },
    });
    expect(request.headers["User-Agent"]).toMatch(/^Mozilla\/5\.0/);
  });

  it("normalises references to upper case and needs no account", () => {
    expect(adapter.normalizeReference(" ugo4d2coda ")).toBe("UGO4D2CODA");
    expect(adapter.validate({ transactionNumber: "SJ72HK3YZ9", account: null, token: null })).toBeNull();
    expect(adapter.parseShareUrl(new URL("https://m-pesabusiness.safaricom.et/receipt/ugo4d2coda"))).toEqual({
      transactionNumber: "UGO4D2CODA",
      accountNumber: null,
      token: null,
    });
  });
});

describe("M-Pesa: the reference a receipt counts as used under", () => {
  const adapter = createMpesaAdapter();
  const receipt = (transactionId: string) =>
    renderPdf((doc) => {
      doc.text("Send Money 2026-07-24 11:53:57 EAT");
      doc.text("RECEIPT NO 6E52A1F0C93B4D7E");
      doc.text(`TRANSACTION ID ${transactionId}`);
      doc.text("TOTAL 2.00");
    });
  const answerWith = async (transactionId: string) =>
    json({ responseCode: "0", base64Data: (await receipt(transactionId)).toString("base64") });

  it("is the TRANSACTION ID, never the internal RECEIPT NO", () => {
    expect(readMpesaReceiptText(fixture("bilingual-fees-first.txt")).reference).toBe("UGO4D2CODA");
    expect(readMpesaReceiptText(fixture("glued.txt")).reference).toBe("UFS98HOPQJ");
    expect(readMpesaReceiptText(fixture("mangled-amharic.txt")).reference).toBe("UGO4D2CODA");
  });

  it("refuses a receipt of another transaction", async () => {
    await expect(adapter.parseResponse(await answerWith("UGO4D2CODA"), target)).resolves.toMatchObject({
      kind: "found",
      reference: "UGO4D2CODA",
    });
    await expect(adapter.parseResponse(await answerWith("UFS98HOPQJ"), target)).rejects.toThrow(
      /answered with another transaction/,
    );
  });
});
