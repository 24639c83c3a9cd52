import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  createCbeBirrAdapter,
  normalizePhone,
  parseCbeBirrText,
  readCbeBirrText,
} from "../../src/banks/cbebirr/adapter.js";
import { simulatedCbeBirr } from "../../src/banks/cbebirr/imitation.js";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import type { BankResponse, LookupTarget } from "../../src/banks/types.js";
import { htmlPage } from "../../src/reading/html-page.js";
import { textLines } from "../../src/reading/pdf-labels.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { describeBankContract } from "./contract.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/banks/cbebirr/${name}`, import.meta.url), "utf8");

const target: LookupTarget = { transactionNumber: "DIP41PM7JL", account: "251911234567", token: null };

function answer(
  status: number,
  body: string | Buffer,
  contentType = "text/html; charset=utf-8",
): BankResponse {
  return {
    status,
    headers: { "content-type": contentType },
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  };
}

describeBankContract({
  adapter: (network) => createCbeBirrAdapter({ network }),
  bank: simulatedCbeBirr,
  shareUrls: [
    {
      url: "https://cbepay1.cbe.com.et/aureceipt?TID=DIP41PM7JL&PH=251911234567",
      expected: { transactionNumber: "DIP41PM7JL", accountNumber: "251911234567", token: null },
    },
    {
      url: "https://cbepay1.cbe.com.et/aureceipt?tid=cgu7k2m9qa&ph=0987654321",
      expected: { transactionNumber: "CGU7K2M9QA", accountNumber: "251987654321", token: null },
    },
    {
      url: "https://cbepay1.cbe.com.et/aureceipt?TID=FT26271B4NHD",
      expected: { transactionNumber: "FT26271B4NHD", accountNumber: null, token: null },
    },
    {
      // weak (docs/banks.md §2.7): a single cheki guide mentions this form.
      url: "https://apps.cbebirr.com.et/receipt/DIP41PM7JL?phone=%2B251911234567",
      expected: { transactionNumber: "DIP41PM7JL", accountNumber: "251911234567", token: null },
    },
  ],
  foreignUrls: [
    "https://cbepay1.cbe.com.et/aureceipt?TID=abc&PH=251911234567",
    "https://cbepay1.cbe.com.et/aureceipt?PH=251911234567",
    "https://cbepay1.cbe.com.et/receipt?TID=DIP41PM7JL&PH=251911234567",
    "https://cbe.com.et/aureceipt?TID=DIP41PM7JL&PH=251911234567",
    "https://apps.cbebirr.com.et/other/DIP41PM7JL",
  ],
  invalidTargets: [
    { transactionNumber: "DIP41PM7JL", account: null, token: null },
    { transactionNumber: "DIP41PM7JL", account: "12345", token: null },
    { transactionNumber: "DIP41PM7JL", account: "0811234567", token: null },
    { transactionNumber: "DIP41", account: "0911234567", token: null },
    { transactionNumber: "DIP41PM7JL!", account: "0911234567", token: null },
  ],
});

describe("cbebirr adapter: input", () => {
  const adapter = createCbeBirrAdapter();

  it("normalises the payer phone to 2519XXXXXXXX", () => {
    for (const raw of [
      "0911234567",
      "+251911234567",
      "251911234567",
      "+251 91 123 4567",
      "911234567",
      "00251911234567",
    ]) {
      expect(normalizePhone(raw), raw).toBe("251911234567");
    }
    expect(adapter.normalizeAccount("0911-23-45-67")).toBe("251911234567");
  });

  it("uppercases receipt numbers and builds the aureceipt URL", () => {
    expect(adapter.normalizeReference(" dip41pm7jl ")).toBe("DIP41PM7JL");
    expect(adapter.buildRequest({ ...target, account: "0911234567" }).url).toBe(
      "https://cbepay1.cbe.com.et/aureceipt?TID=DIP41PM7JL&PH=251911234567",
    );
    expect(adapter.network.insecureTlsOrigins).toEqual(["cbepay1.cbe.com.et:443"]);
  });

  it("asks for the payer phone with a clear message", () => {
    expect(adapter.validate({ ...target, account: null })).toEqual({
      field: "account_number",
      message: expect.stringMatching(/required for CBE Birr.*payer's phone/),
    });
    expect(adapter.validate({ ...target, transactionNumber: "FT26271B4NHD" })).toBeNull();
    expect(adapter.validate({ ...target, transactionNumber: "DIP41PM7JLY" })).toBeNull();
    expect(adapter.validate(target)).toBeNull();
  });
});

describe("cbebirr text parser", () => {
  it("reads the real pdf-parse layout: glued labels, wrapped value, glued row, amounts above labels", () => {
    expect(parseCbeBirrText(textLines(fixture("pdf-vixen-layout.txt")))).toEqual({
      status: "completed",
      amount: 20,
      currency: "ETB",
      transactionDate: "2026-09-25T16:39:00+03:00",
      payerName: "ASENAFI TEST BEZABEH",
      payerAccount: "251912345678",
      receiverName: "TESFAYE TEST MAMO",
      receiverAccount: "0976000611",
      description: "coffee",
    });
  });

  it("reads labels stacked above values", () => {
    expect(parseCbeBirrText(textLines(fixture("pdf-stacked-layout.txt")))).toEqual({
      status: "completed",
      amount: 1500,
      currency: "ETB",
      transactionDate: "2026-10-01T14:05:00+03:00",
      payerName: "ABEBE TEST KEBEDE",
      payerAccount: "2519XXXX1234",
      receiverName: "TEST MERCHANT PLC",
      receiverAccount: "1000XXXXX5678",
      description: "Rent October",
    });
  });

  it("takes the receiver name from the Credit Account when there is no Receiver Name", () => {
    const lines = [
      "Credit Account0922446688 - KIDIST ALEMU",
      "Transaction StatusCompleted",
      "DIP41PM7JL2026-09-25 16:3920.00",
    ];
    expect(parseCbeBirrText(lines)).toMatchObject({
      amount: 20,
      receiverName: "KIDIST ALEMU",
      receiverAccount: "0922446688",
      payerName: "",
      description: null,
    });
  });

  it("reads values put before their labels, and a table row split into cells", () => {
    const text = [
      "251911234567\tDebit Account",
      "0922446688 - A B\tCredit Account",
      "Completed\tTransaction Status",
      "DIP41PM7JL\t2026-09-25\t16:39\t20.00",
    ].join("\n");
    expect(parseCbeBirrText(textLines(text))).toMatchObject({
      amount: 20,
      transactionDate: "2026-09-25T16:39:00+03:00",
      payerAccount: "251911234567",
      receiverName: "A B",
      receiverAccount: "0922446688",
    });
  });

  it("keeps a status other than Completed", () => {
    const lines = ["Transaction Status Failed", "Paid amount 20.00", "2026-09-25 16:39"];
    expect(parseCbeBirrText(lines).status).toBe("failed");
  });

  it("rejects text without an amount or a date", () => {
    expect(() => parseCbeBirrText(["Receiver Name", "SOMEONE", "Order ID", "ORD1"])).toThrow(
      ReceiptFormatError,
    );
    expect(() => parseCbeBirrText(["Paid amount20.00"])).toThrow(ReceiptFormatError);
  });
});

describe("cbebirr adapter: answers", () => {
  const adapter = createCbeBirrAdapter();

  it("reads an HTML report with label and value cells", async () => {
    await expect(adapter.parseResponse(answer(200, fixture("html-cells.html")), target)).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        amount: 2000,
        currency: "ETB",
        transactionDate: "2026-10-02T09:30:00+03:00",
        payerName: "SAMPLE PAYER",
        payerAccount: "2519XXXX4321",
        receiverName: "SAMPLE SHOP",
        receiverAccount: "1000XXXXX8765",
        description: "Invoice 12",
      },
      // The report shows the receipt number apart from any date, so the one asked for stands.
      reference: "DIP41PM7JL",
    });
    expect(parseCbeBirrText(htmlPage(fixture("html-cells.html")).lines()).amount).toBe(2000);
  });

  it("leaves out what the report's comments hold", async () => {
    const html = fixture("html-cells.html").replace(
      "<table>",
      "<table><!-- <tr><td>Paid amount</td><td>9.00 ETB</td></tr> --><!--\nPaid amount\n8.00 ETB\n-->",
    );
    await expect(adapter.parseResponse(answer(200, html), target)).resolves.toMatchObject({
      kind: "found",
      receipt: { amount: 2000 },
      reference: "DIP41PM7JL",
    });
  });

  it("reads a minified report whose <title> runs into the first label", async () => {
    const html = fixture("html-cells.html").replace(/>\s*\n\s*</g, "><");
    await expect(adapter.parseResponse(answer(200, html), target)).resolves.toMatchObject({
      kind: "found",
      receipt: { payerName: "SAMPLE PAYER", amount: 2000 },
    });
  });

  it("reads an HTML answer sent as text/html without <html> or a doctype", async () => {
    const fragment = fixture("html-cells.html").replace(/<!DOCTYPE html><html>|<\/html>/g, "");
    await expect(adapter.parseResponse(answer(200, fragment), target)).resolves.toMatchObject({
      kind: "found",
      receipt: { amount: 2000 },
    });
    const shell = '<title>Auto Receipt</title><div id="ReportViewer1"></div>';
    await expect(adapter.parseResponse(answer(200, shell), target)).resolves.toEqual({ kind: "not_found" });
  });

  it("reads the empty Telerik 'Auto Receipt' page as not found", async () => {
    await expect(adapter.parseResponse(answer(200, fixture("telerik-empty.html")), target)).resolves.toEqual({
      kind: "not_found",
    });
  });

  it("rejects other pages, broken PDFs and unexpected statuses; 5xx is unavailable", async () => {
    await expect(
      adapter.parseResponse(answer(200, "<html><body>Hello</body></html>"), target),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    await expect(
      adapter.parseResponse(answer(200, "%PDF-1.7 truncated", "application/pdf"), target),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    await expect(adapter.parseResponse(answer(404, "Not Found"), target)).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
    await expect(adapter.parseResponse(answer(500, "Runtime Error"), target)).rejects.toBeInstanceOf(
      BankUnavailableError,
    );
  });
});

describe("simulated cbebirr", () => {
  it("answers the receiver's phone with the empty shell", async () => {
    const res = await simulatedCbeBirr.handle({
      origin: "cbepay1.cbe.com.et:443",
      method: "GET",
      path: "/aureceipt",
      query: new URLSearchParams({ TID: "DIP41PM7JL", PH: "251922446688" }),
      headers: {},
    });
    expect(res.status).toBe(200);
    expect(String(res.body)).toContain("Auto Receipt");
    expect(String(res.body)).not.toContain("Paid amount");
  });
});

describe("cbebirr: the reference a receipt counts as used under", () => {
  const adapter = createCbeBirrAdapter();

  it("is the Receipt Number of the Transaction Details row, glued to its date or not", () => {
    expect(readCbeBirrText(textLines(fixture("pdf-vixen-layout.txt"))).reference).toBe("DIP41PM7JLY");
    // A number ending in digits: the date still starts four digits before its first dash.
    expect(readCbeBirrText(textLines(fixture("pdf-stacked-layout.txt"))).reference).toBe("CHK0000001");
    const cells = textLines("Paid amount 20.00\nDIP41PM7JL\t2026-09-25\t16:39\t20.00");
    expect(readCbeBirrText(cells).reference).toBe("DIP41PM7JL");
    const htmlRow = [
      "Receipt Number",
      "Transaction Date",
      "Amount",
      "FT26271B4NHD",
      "2026-09-28 20:14",
      "Br 350.00",
    ];
    expect(readCbeBirrText(htmlRow).reference).toBe("FT26271B4NHD");
  });

  it("never takes a phone number standing before a date for the receipt number", () => {
    expect(readCbeBirrText(["Paid amount 20.00", "251911234567", "2026-09-25 16:39"]).reference).toBe("");
  });

  it("accepts the real glued row DIP41PM7JLY2026-… for the 10-character receipt number asked for", async () => {
    // docs/banks.md §2.7 says receipt numbers are 10 characters, yet its real row reads
    // "DIP41PM7JLY2026-09-25": the boundary is ambiguous, and the bank answered the TID it was asked for.
    const pdf = await renderPdf((doc) => {
      for (const line of fixture("pdf-vixen-layout.txt").split("\n")) doc.text(line);
    });
    await expect(adapter.parseResponse(answer(200, pdf, "application/pdf"), target)).resolves.toMatchObject({
      kind: "found",
      reference: "DIP41PM7JL",
      receipt: { amount: 20 },
    });
    const eleven = { ...target, transactionNumber: "DIP41PM7JLY" };
    await expect(adapter.parseResponse(answer(200, pdf, "application/pdf"), eleven)).resolves.toMatchObject({
      kind: "found",
      reference: "DIP41PM7JLY",
    });
  });

  it("refuses a receipt of another transaction", async () => {
    const html = `<html><body><div>Paid amount</div><div>20.00</div><div>DIP41PM7JQ</div><div>2026-09-25 16:39</div></body></html>`;
    await expect(adapter.parseResponse(answer(200, html), target)).rejects.toThrow(
      /answered with another transaction/,
    );
    await expect(
      adapter.parseResponse(answer(200, html.replace("DIP41PM7JQ", "DIP41PM7JL")), target),
    ).resolves.toMatchObject({ kind: "found", reference: "DIP41PM7JL" });
  });
});
