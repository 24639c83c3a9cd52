import { describe, expect, it } from "vitest";
import { readZemenReceiptText } from "../../src/banks/zemen/adapter.js";
import { anyLabel, LABEL_PATTERNS } from "../../src/banks/zemen/labels.js";
import { zemenReceiptParser } from "../../src/banks/zemen/receipt.js";

// One label, one pattern (docs/banks.md §2.6): the receipt PDF's labels for the adapter and the reader alike.
describe("Zemen labels, written once for the adapter and the receipt reader", () => {
  it("accepts the spacing either reader accepted before", () => {
    expect(LABEL_PATTERNS.payerAccount.test("Payer account no.:1021******018")).toBe(true);
    expect(LABEL_PATTERNS.payerAccount.test("Payeraccount no 1021******018")).toBe(true);
    expect(LABEL_PATTERNS.total.test("Total Amount Paid ETB483.95")).toBe(true);
    expect(anyLabel(["recipientName", "total"]).test("RecipientName EYOB")).toBe(true);
  });

  it("reads a PDF whose labels lost their spaces the same in the adapter and the reader", () => {
    const text = [
      "Date:29-Jun-2025, 10:55:59 am",
      "Payername:LIDYA MULUGETA ABERA",
      "Payeraccount no.:1021******018",
      "Recipientname:EYOB TESHOME",
      "Recipientaccount no.:1031110045678010",
      "ReferenceNo:108ATWR2518000QK",
      "Transactionstatus:Successful",
      "SettledAmount ETB 480.50",
    ].join("\n");
    const { receipt, reference } = readZemenReceiptText(text);
    expect(reference).toBe("108ATWR2518000QK");
    expect(receipt).toMatchObject({
      status: "completed",
      amount: 480.5,
      payerName: "LIDYA MULUGETA ABERA",
      receiverAccount: "1031110045678010",
    });
    expect(zemenReceiptParser.parse(`Zemen Bank\n${text}`).receipt).toMatchObject({
      amount: 480.5,
      payerName: "LIDYA MULUGETA ABERA",
    });
  });
});
