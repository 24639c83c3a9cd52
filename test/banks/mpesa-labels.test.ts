import { describe, expect, it } from "vitest";
import { readMpesaReceiptText } from "../../src/banks/mpesa/adapter.js";
import { FEE_BEFORE_LABEL, LABEL_PATTERNS, type MpesaLabel } from "../../src/banks/mpesa/labels.js";
import { mpesaReceiptParser } from "../../src/banks/mpesa/receipt.js";

describe("mpesa labels, one profile for the adapter and the receipt reader", () => {
  it("knows each label in every spelling either reader took", () => {
    const cases: [string, MpesaLabel][] = [
      ["PAYER PHONE NUMBER251712480315", "payerPhone"],
      ["PAYER PHONE NO. 251712480315", "payerPhone"],
      ["PAYER PHONE 251712480315", "payerPhone"],
      ["RECEIVER BUSINESS NAME", "receiverName"],
      ["ReceiverName", "receiverName"],
      ["RECEIPT NO9A0C44B7E1D25F63", "receiptNo"],
      ["RECEIPT NUMBER 9A0C44B7E1D25F63", "receiptNo"],
      ["TRANSACTION IDUFS98HOPQJ", "transactionId"],
      ["SERVICEFEE 0.00", "serviceFee"],
      ["+ 15 % VAT", "vat"],
      ["VAT (15%)", "vat"],
      ["TOTAL AMOUNT 5.00", "total"],
    ];
    for (const [printed, label] of cases) expect(LABEL_PATTERNS[label].test(printed), printed).toBe(true);
    expect(LABEL_PATTERNS.total.test("TOTAL ETHIOPIA SERVICE STATION")).toBe(false);
    expect(LABEL_PATTERNS.amount.test("TOTAL AMOUNT 5.00")).toBe(false);
  });

  it("takes a fee printed before its label only with the layout's separator", () => {
    expect(FEE_BEFORE_LABEL.serviceFee.exec("1.00 Birr / SERVICE FEE")?.[1]).toBe("1.00");
    expect(FEE_BEFORE_LABEL.vat.exec("0.15 Birr + 15% VAT")?.[1]).toBe("0.15");
    // The TOTAL figure on the line above is not the VAT.
    expect(FEE_BEFORE_LABEL.vat.exec("TOTAL 2.00\n15% VAT 0.30")).toBeNull();
  });

  it("takes the same amount from the bank's PDF text and from a damaged copy of it", () => {
    const pdf = [
      "TRANSACTION TYPE Send Money",
      "DATE 2026-07-24 11:53:02",
      "TRANSACTION ID UGO4D2CODA",
      "RECEIPT NO 9A0C44B7E1D25F63",
      "PAYER NAME ABEBE KEBEDE",
      "PAYER PHONE NUMBER 251712480315",
      "RECEIVER NAME HIRUT BEKELE",
      "RECEIVER NUMBER 251714000707",
      "2.00 Birr / SERVICE FEE",
      "0.30 Birr + 15% VAT",
      "TOTAL 102.30",
    ];
    expect(readMpesaReceiptText(pdf.join("\n")).receipt.amount).toBe(100);
    // A photo that lost its date: the adapter's reading fails, the partial reading keeps the same rule.
    const photo = mpesaReceiptParser.parse(pdf.filter((line) => !line.startsWith("DATE")).join("\n"));
    expect(photo.transactionNumber).toBe("UGO4D2CODA");
    expect(photo.receipt).toMatchObject({ amount: 100, payerAccount: "251712480315" });
  });
});
