import { describe, expect, it } from "vitest";
import { dashenReceiptParser as parser } from "../../src/banks/dashen/receipt.js";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { detectBank } from "../../src/receipts/detect.js";

describe("Dashen receipt text", () => {
  describe("the FT Ref", () => {
    it("prefers the 16-character FT Ref over the app's long Transaction Ref", () => {
      const app = [
        "Successfully paid!",
        "ETB 1,500.00",
        "Transaction Ref",
        "WDTI5186142501962751085",
        "FT Ref",
        "045WDTS2514600WM",
        "Dashen Bank Super App",
      ].join("\n");
      expect(parser.parse(app)?.transactionNumber).toBe("045WDTS2514600WM");
    });

    it("returns null when only the long Transaction Ref / Transfer Reference is printed", () => {
      const text = "Dashen Bank Super App\nTransaction Ref: OBTI28455679126320660525\nAmount: ETB 300.00";
      expect(parser.parse(text).transactionNumber).toBeNull();
      expect(parser.parse("Transfer Reference: WDTI5921680061225851717").transactionNumber).toBeNull();
    });

    it("repairs look-alikes only where the shape wants a letter or a digit", () => {
      // l → I in the type, Z → 2 and S → 5 in YYDDD, O → 0 in the sequence's two leading digits; the free
      // positions (the branch code's first character, the sequence's last two) keep what OCR read.
      expect(parser.parse("Transaction Reference: 822LTWS2622600WJ")?.transactionNumber).toBe(
        "822LTWS2622600WJ",
      );
      expect(parser.parse("Transaction Reference: B22WDTl2616Z0001")?.transactionNumber).toBe(
        "B22WDTI261620001",
      );
      expect(parser.parse("Transaction Reference: 822LTWS26226OOWJ")?.transactionNumber).toBe(
        "822LTWS2622600WJ",
      );
      // The branch code's last two are digits in all of docs/banks.md's samples: Z there is a 2.
      expect(parser.parse("Transaction Reference: 8Z2LTWS2622600WJ")?.transactionNumber).toBe(
        "822LTWS2622600WJ",
      );
      expect(parser.parse("Transaction Reference: QO8WDTI2611400RK")?.transactionNumber).toBe(
        "Q08WDTI2611400RK",
      );
    });

    it("reads a reference OCR split in two", () => {
      expect(parser.parse("Transaction Reference: 822LTWS26 22600WJ")?.transactionNumber).toBe(
        "822LTWS2622600WJ",
      );
    });

    it("does not take a 16-digit number for a reference", () => {
      const text = "Dashen Bank\nCard 1000511256781234\nAmount ETB 500.00";
      expect(parser.parse(text).transactionNumber).toBeNull();
      expect(parser.detect("Card 1000511256781234")).toBe(0);
    });

    it("reads the reference glued to the next label in pdf-parse text", () => {
      const pdf = "Transaction Ref:D31OBTI251720001Date:Jun 21, 2025, 09:05:11 am\nAccount Holder Name:A B";
      expect(parser.parse(pdf)?.transactionNumber).toBe("D31OBTI251720001");
    });
  });

  describe("links", () => {
    it("takes the receipt link, never the feedback link, and trims the SMS full stop", () => {
      const sms =
        "Dear Customer, you have successfully transferred ETB 50.00 … with transaction reference 822LTWS2622600WJ.\n" +
        "Share us your feedback: https://forms.gle/mbzfguGEdytV5GKj6\n" +
        "Download receipt: = https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ.";
      expect(parser.parse(sms)).toMatchObject({
        transactionNumber: "822LTWS2622600WJ",
        shareUrl: "https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
      });
    });

    it("reads the old PDF link of api.dashensuperapp.com", () => {
      const text = "https://api.dashensuperapp.com/receipts/Within-Dashen-Transfer-B22WDTI261620001.pdf";
      expect(parser.parse(text)).toMatchObject({ transactionNumber: "B22WDTI261620001", shareUrl: text });
      expect(parser.detect(text)).toBe(10);
    });

    it("accepts a link without its scheme (a phone's address bar) and gives it https", () => {
      const claim = parser.parse("receipts.dashenbanksc.com/receipt/641OBTS2518100WH");
      expect(claim?.shareUrl).toBe("https://receipts.dashenbanksc.com/receipt/641OBTS2518100WH");
    });

    it("ignores lookalike hosts, userinfo and plain http", () => {
      for (const url of [
        "https://evil-receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
        "https://receipts.dashenbanksc.com.evil.io/receipt/822LTWS2622600WJ",
        "https://x@receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
        "http://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
      ]) {
        // The reference is still printed in the text, but the link is not the bank's.
        expect(parser.parse(url)?.shareUrl ?? null).toBeNull();
        expect(parser.detect(url)).toBeLessThan(10);
      }
    });
  });

  describe("amounts", () => {
    it("takes the Transaction Amount, not the Total with fees", () => {
      const text = [
        "Transaction Reference: 822LTWS2622600WJ",
        "Sender Name: HANA MEKONNEN ALEMU",
        "Total ETB 1,252.30",
        "Transaction Amount ETB 1,250.00",
        "Service Charge ETB 2.00",
      ].join("\n");
      expect(parser.parse(text)?.receipt.amount).toBe(1250);
    });

    it("takes the transferred amount of the SMS, not its charges or the balance", () => {
      const sms =
        "Dear Getasew, you have successfully transferred ETB 50.00 from your account 5822**011 to Getasew Adane " +
        "Ambaw tele birr account +251945557122 on 2026-08-14 at 08:52:25 with transaction reference 822LTWS2622600WJ. " +
        "The service charge is ETB 5, VAT (15%) ETB 0.75 and DRRF (5%) ETB 0.25. Your current balance is ETB 6,999.44.";
      expect(parser.parse(sms)?.receipt).toMatchObject({
        amount: 50,
        receiverName: "Getasew Adane Ambaw",
        receiverAccount: "+251945557122",
      });
      // The greeting is not a printed payer name (it may be a first name only).
      expect(parser.parse(sms)?.receipt.payerName).toBeUndefined();
    });

    it("takes the old debit SMS's fees off its debit", () => {
      const sms =
        "Dear Customer, your account 5110****011 has been debited with ETB 100.48 on 2026-06-18 at 10:23:00. " +
        "A service fee of ETB 0.4, VAT of ETB 0.06 and DRRF fee of ETB 0.02 have been applied.\n" +
        "For receipt https://receipt.dashensuperapp.com/receipt/110IPSS2616900WO";
      expect(parser.parse(sms)?.receipt.amount).toBe(100);
      // Whole birr or not: a whole debit is still the transfer and its fees.
      const whole =
        "Dear FIKIRTE WORKNEH, your account 5561******424 has been debited with ETB 772,030.00 on 2025-08-12 at " +
        "11:12:47. A service fee of ETB 25, VAT of ETB 3.75. For receipt " +
        "https://receipt.dashensuperapp.com/receipt/798ETAP252240071";
      expect(RECEIPT_PARSERS.dashen.parse(whole)?.receipt.amount).toBe(772001.25);
    });

    it("reads OCR look-alikes in amounts, dates and accounts", () => {
      const text = [
        "Transaction Reference: 132WDTS26196000H",
        "Sender Name: BETELHEM KASSA",
        "Sender Account Number: 5110******O11",
        "Transaction Date: Jul 15. 2O26. 11:O4:27 am",
        "Transaction Amount ETB3,5OO.OO",
      ].join("\n");
      expect(parser.parse(text)?.receipt).toMatchObject({
        amount: 3500,
        payerAccount: "5110******011",
        transactionDate: "2026-07-15T11:04:27+03:00",
      });
    });
  });

  describe("detect", () => {
    it("scores the host and the bank's own name 10", () => {
      expect(parser.detect("https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ")).toBe(10);
      expect(parser.detect("Thank you for using Dashen Super app")).toBe(10);
      expect(parser.detect("Thank you for banking with Dashen Bank.")).toBe(10);
    });

    it("scores Dashen's own labels and its reference shape 5", () => {
      expect(parser.detect("Instituton Name: Commercial Bank of Ethiopia")).toBe(5);
      expect(parser.detect("FT Ref\n045WDTS2514600WM")).toBe(5);
      expect(parser.detect("822LTWS2622600WJ")).toBe(5);
    });

    it("does not claim a text that names Dashen only as the other side's bank", () => {
      expect(parser.detect("Beneficiary Bank : Dashen Bank")).toBe(0);
      expect(parser.detect("a transfer of 200.00 birr to your DASHEN account is being processed")).toBe(0);
      expect(parser.detect("Bank Name\nDashen Bank")).toBe(0);
    });

    it("leaves a bare FT reference to the FT banks", () => {
      expect(parser.detect("FT26140P01YB")).toBe(0);
      expect(detectBank("822LTWS2622600WJ")).toEqual({ kind: "detected", bank: "dashen" });
    });
  });
});
