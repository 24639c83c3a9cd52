import { describe, expect, it } from "vitest";
import { readTelebirrReceipt } from "../../src/banks/telebirr/adapter.js";
import { LINE_LABELS, type TelebirrLabel } from "../../src/banks/telebirr/labels.js";
import { telebirrReceiptParser } from "../../src/banks/telebirr/receipt.js";

const labelOf = (printed: string): TelebirrLabel | null =>
  LINE_LABELS.find(([, pattern]) => pattern.test(printed))?.[0] ?? null;

describe("telebirr labels, one profile for the adapter and the receipt reader", () => {
  it("knows each label in every spelling either reader took", () => {
    const cases: [string, TelebirrLabel | null][] = [
      ["Payer Name", "payerName"],
      ["PayerName", "payerName"],
      ["payer telebirr no.", "payerPhone"],
      ["Payer tele birr no", "payerPhone"],
      ["Payer TIN No.", "payerTin"],
      ["Payer TIN", "payerTin"],
      ["Credited Party name", "creditedName"],
      ["credited party account no.", "creditedAccount"],
      ["transaction status", "status"],
      ["Invoice details", "invoiceDetails"],
      ["Invoice No.", "invoiceNo"],
      ["Settled Amount", "settledAmount"],
      ["Service fee VAT", "serviceFeeVat"],
      ["Service fee", "serviceFee"],
      ["Total Amount in word", "inWords"],
      ["Total Paid Amount", "totalPaid"],
      ["Scan the QR using telebirr SuperApp to verify the payment", "footer"],
      ["Transaction Number", "transactionNumber"],
      ["Completed", null],
    ];
    for (const [printed, label] of cases) expect(labelOf(printed), printed).toBe(label);
  });

  it("reads the same page alike in the bank's answer and in a copy of it", () => {
    const rows: [string, string][] = [
      ["የከፋይ ስም/Payer Name", "Abel Tesfaye"],
      ["የከፋይ ቴሌብር ቁ./Payer telebirr no.", "2519****1180"],
      ["የገንዘብ ተቀባይ ስም/Credited Party name", "Liya Bekele"],
      ["የገንዘብ ተቀባይ ቴሌብር ቁ./Credited party account no", "2519****4025"],
      ["የክፍያው ሁኔታ/transaction status", "Completed"],
      ["Invoice No.", "DFH51OFIED"],
      ["Payment date", "01-09-2026 10:15:00"],
      ["Settled Amount", "12,500.75 Birr"],
      ["Service fee", "0.87 Birr"],
      ["Payment Reason", "Send Money to Registered Customer"],
    ];
    const html = `<html><body><table>${rows.map(([l, v]) => `<tr><td>${l}</td><td>${v}</td></tr>`).join("")}</table></body></html>`;
    const page = readTelebirrReceipt(html);
    const copy = telebirrReceiptParser.parse(rows.map(([l, v]) => `${l} ${v}`).join("\n"));
    expect(page.reference).toBe("DFH51OFIED");
    expect(copy.transactionNumber).toBe("DFH51OFIED");
    expect(copy.receipt).toEqual({
      amount: 12500.75,
      currency: "ETB",
      transactionDate: page.receipt.transactionDate,
      status: page.receipt.status,
      transactionType: page.receipt.transactionType,
      payerName: page.receipt.payerName,
      payerAccount: page.receipt.payerAccount,
      receiverName: page.receipt.receiverName,
      receiverAccount: page.receipt.receiverAccount,
    });
    expect(page.receipt.amount).toBe(12500.75);
  });
});
