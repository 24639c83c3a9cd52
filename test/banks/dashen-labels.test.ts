import { describe, expect, it } from "vitest";
import { sliceByLabels } from "../../src/banks/dashen/labels.js";
import { dashenReceiptParser } from "../../src/banks/dashen/receipt.js";

describe("dashen labels, one profile for the adapter and the receipt reader", () => {
  it("slices the current page's labels, however a copy spaces them", () => {
    const text = [
      "Sender Name: HANA MEKONNEN ALEMU",
      "Sender  Account Number: 5032******117",
      "Service Type: Dashen to Telebirr Transfer",
      "ReceiverName: SAMUEL GETACHEW",
      "Phone No: +251911223344",
      "Transaction Reference: 822LTWS2622600WJ",
      "Transaction Date: Aug 14, 2026, 02:31:07 pm",
      "Transaction Amount ETB 1,250.00",
      "Excise Tax (15%) ETB 0.75",
      "VAT ( 15 % ) ETB 0.30",
      "Total ETB 1,252.05",
    ].join("\n");
    expect(sliceByLabels(text)).toEqual({
      payerName: "HANA MEKONNEN ALEMU",
      payerAccount: "5032******117",
      serviceType: "Dashen to Telebirr Transfer",
      receiverName: "SAMUEL GETACHEW",
      phone: "+251911223344",
      reference: "822LTWS2622600WJ",
      date: "Aug 14, 2026, 02:31:07 pm",
      amount: "ETB 1,250.00",
      fee: "ETB 0.75",
      total: "ETB 1,252.05",
    });
  });

  it("slices the old PDF's labels, its typo and glued values, the preferred alias first", () => {
    const pdf =
      "Transaction Ref:D31OBTI251720001Date:Jun 21, 2025, 09:05:11 am\nAccount Holder Name:A B\n" +
      "Instituton Name:Commercial Bank of Ethiopia\nAmount: 2,000.00\nTransaction Amount: 2,000.50";
    expect(sliceByLabels(pdf)).toMatchObject({
      reference: "D31OBTI251720001",
      date: "Jun 21, 2025, 09:05:11 am",
      payerName: "A B",
      institution: "Commercial Bank of Ethiopia",
      amount: "2,000.50",
    });
  });

  it("detects Dashen by the labels only it prints, from the same profile", () => {
    for (const text of [
      "Instituton Name: Commercial Bank of Ethiopia",
      "Transaction Channel: Mobile",
      "Excise tax ETB 0.75,",
      "FT Ref 822LTWS2622600WJ",
    ]) {
      expect(dashenReceiptParser.detect(text), text).toBe(5);
    }
  });
});
