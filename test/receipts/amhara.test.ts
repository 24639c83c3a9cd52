import { describe, expect, it } from "vitest";
import { amharaReceiptParser as parser } from "../../src/banks/amhara/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

describe("Amhara receipt text", () => {
  it("reads the receipt QR's bare JSON", () => {
    const qr = '{"transactionId":"FT262507XG9T","creditAccountNo":"ETB1756000010003"}';
    expect(parser.parse(qr)).toMatchObject({ transactionNumber: "FT262507XG9T", accountNumber: null });
    expect(parser.detect(qr)).toBe(5);
  });

  it("reads both share link forms, repairing the reference's date digits", () => {
    expect(parser.parse("https://transaction.amharabank.com.et/FT26248K7Q1P")).toMatchObject({
      transactionNumber: "FT26248K7Q1P",
      shareUrl: "https://transaction.amharabank.com.et/FT26248K7Q1P",
    });
    expect(parser.parse("https://receipt.amharabank.com.et/?trx=FT2625O7XG9T")?.transactionNumber).toBe(
      "FT262507XG9T",
    );
  });

  it("takes Amount, and Total Amount only when no charge is shown", () => {
    const charged = "Transaction Reference FT262507XG9T\nTotal Amount ETB5036.00\nTax Amount ETB4.50";
    expect(parser.parse(charged)?.receipt.amount).toBeUndefined();
    const free = "Transaction Reference FT26301Q4M8Z\nTotal Amount ETB1,200.00\nNet Charge Amount ETB0";
    expect(parser.parse(free)?.receipt.amount).toBe(1200);
    const both = "Transaction Reference FT262507XG9T\nAmount 5000.00\nTotal Amount ETB5036.00";
    expect(parser.parse(both)?.receipt.amount).toBe(5000);
  });

  it("skips settlement placeholders in the name fields", () => {
    const text = [
      "Transaction Reference: FT26248K7Q1P",
      "Debitor Name: A2A Transfer - ETH Incoming",
      "Sendor Name: Yonas Abebe Wolde",
      "Creditor Name: Dawit Mekonnen",
    ].join("\n");
    expect(parser.parse(text)?.receipt).toMatchObject({
      payerName: "Yonas Abebe Wolde",
      receiverName: "Dawit Mekonnen",
    });
  });

  it("reads the raw yyMMddHHmm and falls back to the booking date", () => {
    expect(parser.parse("FT26248K7Q1P\nDate Time 2609051714")?.receipt.transactionDate).toBe(
      "2026-09-05T17:14:00+03:00",
    );
    expect(parser.parse("FT26301Q4M8Z\nBooking Date 20261028")?.receipt.transactionDate).toBe(
      "2026-10-28T00:00:00+03:00",
    );
  });

  it("reads MAT and Auth as completed and keeps any other status visible", () => {
    expect(parser.parse("FT26248K7Q1P\nStatus Auth")?.receipt.status).toBe("completed");
    expect(parser.parse("FT26249RV3KX\nStatus INAU")?.receipt.status).toBe("inau");
  });
});

describe("Amhara detection", () => {
  it("leaves a bare FT reference ambiguous", () => {
    expect(parser.detect("Transaction ID FT26301Q4M8Z")).toBe(1);
    expect(detectBank("FT26301Q4M8Z").kind).toBe("ambiguous");
  });

  it("scores host and name 10, the API's misspelt labels 5", () => {
    expect(parser.detect("https://receipt.amharabank.com.et/?trx=FT262507XG9T")).toBe(10);
    expect(parser.detect("Amhara Bank\nFT262507XG9T")).toBe(10);
    expect(parser.detect("Reveiver Account 1000217529647\nFT262507XG9T")).toBe(5);
  });

  it("does not take the Amhara region or Amhara Bank as the other side for its own", () => {
    expect(parser.detect("Customer Name: ABEBE\nRegion: Amhara\nDIP41PM7JL")).toBe(0);
    expect(parser.detect("Beneficiary Bank Name: Amhara Bank\nD31OBTI251720001")).toBe(0);
  });
});
