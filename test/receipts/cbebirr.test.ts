import { describe, expect, it } from "vitest";
import { cbebirrReceiptParser as parser } from "../../src/banks/cbebirr/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

const GLUED = [
  "Commercial Bank of Ethiopia",
  "VAT Invoice/ Customer Receipt",
  "Transaction Information",
  "Debit Account251911234567",
  "Credit Account0922446688 - KIDIST ALEMU",
  "GEBREMEDHIN",
  "Receiver NameKIDIST ALEMU GEBREMEDHIN",
  "Order IDDIP41PM7JL",
  "Transaction StatusCompleted",
  "ReferenceDIP41PM7JL",
  "Transaction Details",
  "Receipt Number Transaction Date Amount",
  "DIP41PM7JL2026-09-25 16:3920.00",
  "20.00",
  "5.00",
  "0.75",
  "25.75",
  "Paid amount",
  "Service Charge",
  "VAT",
  "Total Paid Amount",
].join("\n");

describe("CBE Birr receipt text", () => {
  it("reads the glued table row and takes the paid amount, not the total with fees", () => {
    expect(parser.parse(GLUED)).toMatchObject({
      transactionNumber: "DIP41PM7JL",
      accountNumber: "251911234567",
      receipt: { amount: 20, transactionDate: "2026-09-25T16:39:00+03:00", receiverAccount: "0922446688" },
    });
  });

  it("takes the TID and payer phone of an aureceipt link", () => {
    const claim = parser.parse("Receipt: https://cbepay1.cbe.com.et/aureceipt?TID=CGU7K2M9QA&PH=0987654321");
    expect(claim).toMatchObject({
      transactionNumber: "CGU7K2M9QA",
      accountNumber: "251987654321",
      shareUrl: "https://cbepay1.cbe.com.et/aureceipt?TID=CGU7K2M9QA&PH=0987654321",
    });
  });

  it("does not take a figure on the next line into the link's phone, but joins a phone the line broke", () => {
    const link = "https://cbepay1.cbe.com.et/aureceipt?TID=CGU7K2M9QA&PH=251987654321";
    expect(parser.parse(`${link}\n17200`)?.accountNumber).toBe("251987654321");
    expect(parser.parse(`${link.slice(0, -6)}\n654321`)?.accountNumber).toBe("251987654321");
  });

  it("has no account number when the Debit Account is masked", () => {
    const text = GLUED.replace("Debit Account251911234567", "Debit Account2519XXXX4567");
    expect(parser.parse(text)?.accountNumber).toBeNull();
  });

  it("repairs OCR letters in the payer phone, never in the receipt number", () => {
    const text = GLUED.replace("Debit Account251911234567", "Debit Account 2519I1234567")
      .replace("ReferenceDIP41PM7JL", "Reference DIPO1PM7JL")
      .replace("Order IDDIP41PM7JL\n", "")
      .replace("DIP41PM7JL2026-09-25 16:3920.00", "");
    const claim = parser.parse(text);
    expect(claim?.accountNumber).toBe("251911234567");
    expect(claim?.transactionNumber).toBe("DIPO1PM7JL");
  });

  it("returns null without a receipt number or link", () => {
    expect(parser.parse("Debit Account 251911234567\nPaid amount 20.00").transactionNumber).toBeNull();
  });
});

describe("CBE Birr detection", () => {
  it("is the wallet's receipt although CBE's name heads it", () => {
    expect(parser.detect(GLUED)).toBe(10);
    expect(detectBank(GLUED)).toEqual({ kind: "detected", bank: "cbebirr" });
  });

  it("scores its labels 5 without a name, and a bare reference shape 1", () => {
    expect(parser.detect(GLUED.replace("Commercial Bank of Ethiopia\n", ""))).toBe(5);
    expect(parser.detect("DIP41PM7JL")).toBe(1);
    expect(parser.detect("FT26271B4NHD")).toBe(1);
  });

  it("does not take Telebirr's or Amhara's look-alike labels for its own", () => {
    const telebirr = "Total Paid Amount 1106.00 Birr\nPayment channel App\ntransaction status Completed";
    expect(parser.detect(telebirr)).toBe(0);
    const amhara = "Debit Account 9900050363768\nCredit Account Id 9900050363768\nBooking Date 20260905";
    expect(parser.detect(amhara)).toBe(0);
  });

  it("does not count CBE Birr named as the other side of a transfer", () => {
    expect(parser.detect("You have transferred ETB 50.00 to CBE Birr wallet 0911234567")).toBe(0);
  });
});
