import { describe, expect, it } from "vitest";
import { parseAwashResponse } from "../../src/banks/awash/adapter.js";
import { labelOf } from "../../src/banks/awash/labels.js";
import { awashReceiptParser } from "../../src/banks/awash/receipt.js";

const TOKEN = "-2KDS640M4F-502Q7J";

describe("awash labels, one profile for the adapter and the receipt reader", () => {
  it("knows each label in every spelling either reader took", () => {
    const cases: [string, ReturnType<typeof labelOf>][] = [
      ["transaction id", "transactionId"],
      ["Transaction lD", "transactionId"],
      ["Transaction|d", "transactionId"],
      ["TIN (TAX ID)", "tin"],
      ["TIN No", "tinNo"],
      ["P.O. Box", "poBox"],
      ["PO Box", "poBox"],
      ["Sender  Name", "senderName"],
      ["SenderName", "senderName"],
      ["Beneficiary name", "beneficiaryName"],
      ["date", "date"],
      ["Transaction", null],
      ["Balance", null],
    ];
    for (const [printed, label] of cases) expect(labelOf(printed), printed).toBe(label);
  });

  it("takes the payer of a Telebirr Transfer from the header in the bank's page and in its copy", async () => {
    const rows: [string, string][] = [
      ["Transaction Date", "2026-06-22"],
      ["Transaction Type", "Telebirr Transfer"],
      ["Phone Number", "251911223344"],
      ["Customer Name", "ABEBE KEBEDE"],
      ["Source Account", "01425******8600/BANK"],
      ["Amount", "800.00"],
      ["Transaction ID", "260622165068799"],
    ];
    const header: [string, string][] = [
      ["Customer Name", "MEKDES HAILE GEBRU"],
      ["Account No", "01425******8600/BANK"],
    ];
    const table = (cells: [string, string][]) =>
      `<table class="info-table">${cells.map(([l, v]) => `<tr><td>${l}</td><td>:</td><td>${v}</td></tr>`).join("")}</table>`;
    const html = `<html><body>${table(header)}<span>Transaction/Payment Information</span>${table(rows)}</body></html>`;
    const answer = await parseAwashResponse(
      { status: 200, headers: {}, body: Buffer.from(html) },
      { transactionNumber: TOKEN, account: null, token: TOKEN },
    );
    const text = [
      `https://awashpay.awashbank.com:8225/${TOKEN}`,
      ...header.map(([l, v]) => `${l} : ${v}`),
      "Transaction/Payment Information",
      ...rows.map(([l, v]) => `${l} : ${v}`),
    ].join("\n");
    const copy = awashReceiptParser.parse(text).receipt;
    expect(answer.kind === "found" && answer.receipt.payerName).toBe("MEKDES HAILE GEBRU");
    expect(copy.payerName).toBe("MEKDES HAILE GEBRU");
    expect(copy.receiverAccount).toBe("251911223344");
  });
});
