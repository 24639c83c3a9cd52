import { describe, expect, it } from "vitest";
import { boaReceiptParser as parser } from "../../src/banks/boa/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

describe("BOA receipt text", () => {
  it("takes the slip link's reference and 5-digit suffix, never the /cs/ feedback link", () => {
    const text = [
      "Feedback: https://cs.bankofabyssinia.com/cs/?trx=CFT26223W14ZW",
      "Receipt: https://cs.bankofabyssinia.com/slip/?trx=FT26223W14ZW94077",
    ].join("\n");
    expect(parser.parse(text)).toMatchObject({
      transactionNumber: "FT26223W14ZW",
      accountNumber: "94077",
      shareUrl: "https://cs.bankofabyssinia.com/slip/?trx=FT26223W14ZW94077",
    });
    expect(
      parser.parse("Feedback: https://cs.bankofabyssinia.com/cs/?trx=CFT26223W14ZW").transactionNumber,
    ).toBeNull();
  });

  it("repairs OCR digits of a slip id and rejoins one wrapped onto the next line", () => {
    expect(parser.parse("https://cs.bankofabyssinia.com/slip/?trx=TT26171RW0YGO2723")?.accountNumber).toBe(
      "02723",
    );
    const wrapped =
      "Receipt: https://cs.bankofabyssinia.com/slip/?trx=TT26171RW0YG\n02723\nBank of Abyssinia.";
    expect(parser.parse(wrapped)).toMatchObject({
      transactionNumber: "TT26171RW0YG",
      accountNumber: "02723",
    });
  });

  it("fills a slip id's character that fits no reading from the feedback link's copy, and nothing else", () => {
    // An SMS screenshot read by OCR: T read as 1 in each copy, at different places.
    const sms = [
      "Receipt: https://cs.bankofabyssinia.com/slip/?trx=1T261055PH6T78310",
      "Feedback: https://cs.bankofabyssinia.com/cs/?trx=CTT261055PH6178310 Bank of Abyssinia",
    ].join("\n");
    expect(parser.parse(sms)).toMatchObject({
      transactionNumber: "TT261055PH6T",
      accountNumber: "78310",
      shareUrl: "https://cs.bankofabyssinia.com/slip/?trx=TT261055PH6T78310",
    });
    // Without the copy, a prefix that is neither FT nor TT is no reference.
    expect(parser.parse(sms.split("\n")[0] ?? "").transactionNumber).toBeNull();
    // A copy whose character fits no reading either repairs nothing.
    expect(parser.parse(sms.replace("trx=CTT", "trx=C1T")).transactionNumber).toBeNull();
  });

  it("reads a written-out slip id as reference + suffix", () => {
    expect(parser.parse("trx FT26083XJRMH26009")).toMatchObject({
      transactionNumber: "FT26083XJRMH",
      accountNumber: "26009",
    });
  });

  it("takes the transferred amount, not the amount in words or the total with VAT", () => {
    const slip = [
      "Transferred Amount in Word",
      "NINE THOUSAND SEVEN HUNDRED EIGHTY EIGHT ETB ONLY",
      "Total Amount including VAT",
      "9793.75",
      "Transferred Amount",
      "9788.00",
      "Transaction Reference",
      "FT250889JGGH",
    ].join("\n");
    expect(parser.parse(slip)?.receipt.amount).toBe(9788);
  });

  it("reads the two-digit-year date of the slip API and the app's date", () => {
    const slip = "Transaction Reference FT26083XJRMH\nTransaction Date 24/03/26 10:15";
    expect(parser.parse(slip)?.receipt.transactionDate).toBe("2026-03-24T10:15:00+03:00");
    const app = "Transaction Reference FT252003JZPP\nTransaction Date 19/07/2025, 17:32:13";
    expect(parser.parse(app)?.receipt.transactionDate).toBe("2025-07-19T17:32:13+03:00");
  });

  it("names the SMS owner as payer of a debit and receiver of a credit", () => {
    const debit =
      "Dear Petros, your account 2*23 was debited with ETB 200.00. Available Balance: ETB 102.63.";
    expect(parser.parse(`${debit} TT26171RW0YG`)?.receipt).toMatchObject({
      payerName: "Petros",
      payerAccount: "2*23",
    });
    const credit =
      "Dear Selam, your account 1*77 was credited with ETB 100.00 by Mikiyas Amsalu. FT26223W14ZW";
    expect(parser.parse(credit)?.receipt).toMatchObject({
      receiverName: "Selam",
      receiverAccount: "1*77",
      payerName: "Mikiyas Amsalu",
      amount: 100,
    });
  });
});

describe("BOA detection", () => {
  it("leaves a bare FT reference ambiguous, but a TT reference is BOA's alone", () => {
    expect(parser.detect("FT26167ZVPCJ")).toBe(1);
    expect(detectBank("FT26167ZVPCJ").kind).toBe("ambiguous");
    expect(parser.detect("TT26171RW0YG")).toBe(5);
    expect(detectBank("TT26171RW0YG")).toEqual({ kind: "detected", bank: "boa" });
  });

  it("scores the host and name 10, the slip API's own labels 5", () => {
    expect(parser.detect("https://cs.bankofabyssinia.com/slip/?trx=FT26223W14ZW94077")).toBe(10);
    expect(parser.detect("¢I& Bank of Abyssinia\nFT252003JZPP")).toBe(10);
    expect(parser.detect("Source Account Name ABEBE\nFT252003JZPP")).toBe(5);
    expect(parser.detect("Total Amount including VAT\n1,113.34")).toBe(5);
  });

  it("does not claim another bank's receipt naming BOA as beneficiary bank", () => {
    expect(parser.detect("Beneficiary Bank: Bank of Abyssinia\nTransaction ID 260328171079006")).toBe(0);
  });
});
