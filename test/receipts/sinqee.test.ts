import { describe, expect, it } from "vitest";
import { sinqeeReceiptParser as parser } from "../../src/banks/sinqee/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

describe("Siinqee receipt text (weak: no real layout is known)", () => {
  describe("the reference", () => {
    it("takes the reference of the bank's link, current host and the older eBirr route", () => {
      expect(parser.parse("https://siinqeebank.com/receipt/FT262507XG9T.")).toMatchObject({
        transactionNumber: "FT262507XG9T",
        shareUrl: "https://siinqeebank.com/receipt/FT262507XG9T",
      });
      expect(parser.parse("https://receipt.ebirr.com/siinqee/FT26248K7Q1P")?.transactionNumber).toBe(
        "FT26248K7Q1P",
      );
    });

    it("does not take a figure on the next line for the rest of the link's FT reference", () => {
      expect(parser.parse("https://siinqeebank.com/receipt/FT26181BSD3T\n19050")?.transactionNumber).toBe(
        "FT26181BSD3T",
      );
      expect(parser.parse("https://siinqeebank.com/receipt/FT2618\n1BSD3T")?.transactionNumber).toBe(
        "FT26181BSD3T",
      );
    });

    it("keeps an eBirr link's token as printed (banks.md §2.9: its shape is unknown)", () => {
      expect(parser.parse("Receipt: https://receipt.ebirr.com/siinqee/6aF3kQ9zT2")).toMatchObject({
        transactionNumber: "6aF3kQ9zT2",
        shareUrl: "https://receipt.ebirr.com/siinqee/6aF3kQ9zT2",
      });
    });

    it("ignores other eBirr tenants, lookalike hosts and http", () => {
      for (const url of [
        "https://receipt.ebirr.com/coopay/FT26248K7Q1P",
        "https://siinqeebank.com.evil.io/receipt/FT26248K7Q1P",
        "https://evil-siinqeebank.com/receipt/FT26248K7Q1P",
        "http://siinqeebank.com/receipt/FT26248K7Q1P",
      ]) {
        expect(parser.parse(url)?.shareUrl ?? null).toBeNull();
        expect(parser.detect(url)).toBeLessThan(10);
      }
    });

    it("repairs look-alikes only in the FT prefix and the YYDDD digits", () => {
      expect(parser.parse("Reference No: FT2625O7XG9T")?.transactionNumber).toBe("FT262507XG9T");
      // The last five are letters or digits: an O there stays an O.
      expect(parser.parse("Reference No: FT26250OXG9T")?.transactionNumber).toBe("FT26250OXG9T");
    });

    it("yields no claim for a reference that is not an FT reference and no link", () => {
      expect(
        parser.parse("Siinqee Bank\nReference No: 20260907104215\nAmount: ETB 500.00").transactionNumber,
      ).toBeNull();
    });
  });

  describe("receipt fields", () => {
    it("takes the transferred amount, not the total with fees", () => {
      const text =
        "Reference: FT262507XG9T\nTotal Amount: ETB 5,011.50\nService Charge: ETB 10.00\nTransferred Amount: ETB 5,000.00";
      expect(parser.parse(text)?.receipt.amount).toBe(5000);
    });

    it("reads tab-separated cells of a copied table", () => {
      const text = "Transaction Reference\tFT262507XG9T\nPayer Name\tGEMECHU TOLESA\nAmount\tETB 5,000.00";
      expect(parser.parse(text)?.receipt).toMatchObject({ payerName: "GEMECHU TOLESA", amount: 5000 });
    });

    it("calls the transfer completed only when the text says it succeeded", () => {
      expect(parser.parse("Reference: FT262507XG9T\nStatus: Success")?.receipt.status).toBe("completed");
      expect(parser.parse("Reference: FT262507XG9T\nStatus: Pending")?.receipt.status).toBe("pending");
      expect(parser.parse("Reference: FT262507XG9T\nAmount: ETB 5.00")?.receipt.status).toBeUndefined();
    });
  });

  describe("detect", () => {
    it("scores the host and the bank's name 10", () => {
      expect(parser.detect("https://siinqeebank.com/receipt/FT262507XG9T")).toBe(10);
      expect(parser.detect("Baankii Siinqee")).toBe(10);
    });

    it("keeps a bare FT reference ambiguous", () => {
      expect(parser.detect("Reference No: FT262507XG9T")).toBe(1);
      expect(detectBank("FT262507XG9T")).toMatchObject({
        kind: "ambiguous",
        candidates: expect.arrayContaining(["sinqee"]),
      });
    });

    it("does not claim a text that names Siinqee only as the other side's bank", () => {
      expect(parser.detect("Beneficiary Bank: Siinqee Bank")).toBe(0);
      expect(parser.detect("Bank Name\nSiinqee Bank\nFT26140P01YB")).toBe(1);
    });
  });
});
