import { describe, expect, it } from "vitest";
import { awashReceiptParser as parser } from "../../src/banks/awash/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

const LINK = "https://awashpay.awashbank.com:8225/-2KDL95Z0NR-4U61O6";

describe("Awash receipt text", () => {
  describe("the share-link token", () => {
    it("claims the printed Transaction ID without the link (the engine explains it cannot be looked up alone)", () => {
      const page = [
        "Company Name : Awash Bank Share company",
        "TIN No : 0000030100",
        "Transaction/Payment Information",
        "Transaction Date : 2026-06-07 11:22:03",
        "Amount : 3,000 ETB",
        "Transaction ID : 260607112275735",
      ].join("\n");
      expect(parser.parse(page)).toMatchObject({
        transactionNumber: "260607112275735",
        shareUrl: null,
        receipt: { amount: 3000 },
      });
      expect(parser.parse("Txn ID: 260607112275735")?.transactionNumber).toBe("260607112275735");
      expect(parser.detect(page)).toBe(10);
    });

    it("keeps the leading dash and the case, and trims the SMS punctuation", () => {
      for (const text of [
        `Receipt Link: ${LINK}.`,
        `(${LINK}).`,
        `${LINK}.Contact center 8980`,
        `${LINK}, thanks`,
      ]) {
        expect(parser.parse(text)).toMatchObject({ transactionNumber: "-2KDL95Z0NR-4U61O6", shareUrl: LINK });
      }
    });

    it("keeps a token that lost its dash as printed, for the adapter to explain", () => {
      const claim = parser.parse("https://awashpay.awashbank.com:8225/2KDL95Z0NR-4U61O6");
      expect(claim?.transactionNumber).toBe("2KDL95Z0NR-4U61O6");
    });

    it("settles O/0 in the token's first part from the Transaction ID printed beside it", () => {
      const ocr = "awashpay.awashbank.com:8225/-2KDL95ZONR-4U61O6\nTransaction ID : 260607112275735";
      expect(parser.parse(ocr)?.transactionNumber).toBe("-2KDL95Z0NR-4U61O6");
    });

    it("repairs nothing without the Transaction ID: base 36 has both O and 0", () => {
      expect(parser.parse("https://awashpay.awashbank.com:8225/-2KDL95ZONR-4U61O6")?.transactionNumber).toBe(
        "-2KDL95ZONR-4U61O6",
      );
      // A Transaction ID of another transfer settles nothing.
      const other = "https://awashpay.awashbank.com:8225/-2KDL95ZONR-4U61O6 Txn ID: 260328103874225";
      expect(parser.parse(other)?.transactionNumber).toBe("-2KDL95ZONR-4U61O6");
    });

    it("reads OCR's en dashes as the token's dashes", () => {
      expect(parser.parse("https://awashpay.awashbank.com:8225/–2KDL95Z0NR–4U61O6")?.transactionNumber).toBe(
        "-2KDL95Z0NR-4U61O6",
      );
    });

    it("ignores lookalike hosts, userinfo and other links", () => {
      for (const text of [
        "https://awashpay.awashbank.com.evil.io/-2KDL95Z0NR-4U61O6",
        "https://evil-awashpay.awashbank.com:8225/-2KDL95Z0NR-4U61O6",
        "https://x@awashpay.awashbank.com:8225/-2KDL95Z0NR-4U61O6",
        "Help us do better – Please take our mini survey: https://shorturl.at/WISQB",
      ]) {
        expect(parser.parse(text).transactionNumber).toBeNull();
      }
    });

    it("takes the receipt link of an SMS that also carries a survey link", () => {
      const sms =
        "Dear customer, You have bought airtime worth ETB 16.00 for 0705043455. Your Balance is ETB 5,739.36. " +
        "Receipt Link: https://awashpay.awashbank.com:8225/-2KDOX63EN7-4X6YHM. \n" +
        "Help us do better – Please take our mini survey: https://shorturl.at/WISQB Thank You. Awash Bank!";
      expect(parser.parse(sms)).toMatchObject({
        transactionNumber: "-2KDOX63EN7-4X6YHM",
        receipt: { amount: 16, status: "completed" },
      });
    });
  });

  describe("receipt fields", () => {
    it("reads a merchant payment: the merchant and till number are the receiver", () => {
      const page = [
        LINK,
        "Customer Name : YARED MULUGETA ABEBE",
        "Account No : 25193******0/WALLET",
        "Transaction/Payment Information",
        "Transaction Date : 2026-05-14 12:08:00",
        "Transaction type : Merchant Payment",
        "Amount : 100.00 ETB",
        "Merchant : TSEHAY CAFE",
        "Till Number : 82795800",
        "Reason : lunch",
        "Sender Name : YARED MULUGETA ABEBE",
      ].join("\n");
      expect(parser.parse(page)?.receipt).toEqual({
        status: "completed",
        transactionType: "Merchant Payment",
        amount: 100,
        currency: "ETB",
        transactionDate: "2026-05-14T12:08:00+03:00",
        payerName: "YARED MULUGETA ABEBE",
        payerAccount: "25193******0/WALLET",
        receiverName: "TSEHAY CAFE",
        receiverAccount: "82795800",
        description: "lunch",
      });
    });

    it("never takes the charge, VAT or balance for the amount", () => {
      const sms =
        "Dear Customer, You have sent ETB 1,600 To (01335625418100) - BEREKET LIBIYOS BERGENE by Transaction ID: " +
        "260615193827946 charge- 2.00 VAT- 0.30 Date 2026-06-15 19:38:24 . Your Available Balance is 4,136.96. " +
        "Download the receipt by link https://awashpay.awashbank.com:8225/-2KDOYTIQ96-4XHM84.";
      expect(parser.parse(sms)?.receipt.amount).toBe(1600);
      const page = `${LINK}\nTransaction Type : Send To Bank\nCharge : 5.00 ETB\nVAT : 0.75 ETB\nAmount : 800.00`;
      expect(parser.parse(page)?.receipt.amount).toBe(800);
    });

    it("reads the MPESA transfer wording and its 12-hour time", () => {
      const sms =
        "Dear Customer,  MPESA transfer of  50.00 ETB for 0705043455 ,Bisrat Tesfaye Adam Ref 260721215098790 " +
        "Date 2026-07-21 09:50:54 PM. VAT: 0.75  Your Balance is ETB 6,121.64.  Receipt Link: " +
        "https://awashpay.awashbank.com:8225/-2KF1O7UIEE-5B948B. Contact Center 8980.";
      expect(parser.parse(sms)?.receipt).toMatchObject({
        amount: 50,
        transactionDate: "2026-07-21T21:50:54+03:00",
        receiverName: "Bisrat Tesfaye Adam",
        receiverAccount: "0705043455",
      });
    });

    it("does not call a transfer that is being processed completed", () => {
      const sms = `Dear Customer, your mobile money transfer of 2800.00 to telebirr account 251928983855 is being processed. ${LINK}`;
      const claim = parser.parse(sms);
      expect(claim?.receipt.amount).toBe(2800);
      expect(claim?.receipt.status).toBeUndefined();
    });
  });

  describe("detect", () => {
    it("scores the host, the TIN and the bank's own name 10", () => {
      expect(parser.detect(LINK)).toBe(10);
      expect(parser.detect("TIN No : 0000030100")).toBe(10);
      expect(parser.detect("Contact center 8980. Thank You. Awash Bank.")).toBe(10);
    });

    it("scores the dash token alone 5, and a bare Transaction ID only 1", () => {
      expect(parser.detect("-2KDL95Z0NR-4U61O6")).toBe(5);
      expect(parser.detect("260607112275735")).toBe(1);
      // Alone it is Awash's, the one bank with that shape; inside a text it may be another number.
      expect(detectBank("260607112275735")).toEqual({ kind: "detected", bank: "awash" });
      expect(detectBank("Paid 500 ref 260607112275735")).toMatchObject({
        kind: "ambiguous",
        candidates: ["awash"],
      });
      // An Awash account number of 15 digits is not a Transaction ID.
      expect(parser.detect("013201620127700")).toBe(0);
    });

    it("does not claim a text that names Awash only as the other side's bank", () => {
      expect(parser.detect("Institution Name: Awash Bank")).toBe(0);
      expect(parser.detect("Beneficiary Bank\nAwash Bank")).toBe(0);
      expect(parser.detect("Dear X, you have transferred ETB 50.00 to Awash Bank account 0142")).toBe(0);
    });
  });
});
