import { describe, expect, it } from "vitest";
import { cbeReceiptParser as parser } from "../../src/banks/cbe/receipt.js";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { readDate, t24References } from "../../src/reading/t24.js";
import { detectBank } from "../../src/receipts/detect.js";

const SMS =
  "Dear Selamawit Girma You have successfully transferred ETB50.00 from account 1**3928 to account 1**1758 (Abebe Kebede). Service charge of ETB 0.50 and VAT(15%) of ETB0.08 and Disaster Recovery(5%) of 0.03 with total of ETB50.61 .Your current balance is ETB16,263.47. Thanks for Banking with CBE. https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL  for feedback: https://forms.gle/kGNGQpG3mQCCk3iD6";

describe("CBE receipt text: references and tokens", () => {
  it("keeps a token exactly as printed: no case change, no O/0 or I/1 repair", () => {
    const claim = parser.parse(SMS);
    expect(claim?.transactionNumber).toBe("v2-hfHCxGvIhvqVMTB7hylL");
    expect(claim?.shareUrl).toBe("https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL");
  });

  it("repairs the date digits of an FT reference but never its last five characters", () => {
    expect(t24References("VAT Receipt No: FT2617ONPPON", ["FT"])).toEqual(["FT26170NPPON"]);
    expect(parser.parse("Ref: FT26170NPPON")?.transactionNumber).toBe("FT26170NPPON");
    expect(t24References("Ref FT 26241X7KQ3 transferred", ["FT"])).toEqual(["FT26241X7KQ3"]);
  });

  it("reads an F that OCR took for P or E, where the rest is a T24 reference", () => {
    expect(t24References("Reference No. (VAT Invoice No)\tPT262728AVLN", ["FT"])).toEqual(["FT262728AVLN"]);
    expect(t24References("Ref ET26100T6WLT", ["FT"])).toEqual(["FT26100T6WLT"]);
    // Not a prefix of a word, and not where the day cannot exist.
    expect(t24References("RECEIPT26100ABCDE", ["FT"])).toEqual([]);
    expect(t24References("PT26400BCDFG", ["FT"])).toEqual([]);
  });

  it("rejects a reference whose day of year cannot exist", () => {
    expect(t24References("Ref FT26400BCDFG", ["FT"])).toEqual([]);
    expect(t24References("Ref FT27366BCDFG", ["FT"])).toEqual([]);
    expect(t24References("Ref FT28366BCDFG", ["FT"])).toEqual(["FT28366BCDFG"]);
  });

  it("takes the CBE link, never the feedback link that follows it", () => {
    const onlyFeedback =
      "You have successfully transferred ETB50.00. for feedback: https://forms.gle/kGNGQpG3mQCCk3iD6";
    expect(parser.parse(onlyFeedback).transactionNumber).toBeNull();
    expect(parser.parse(SMS)?.shareUrl).not.toContain("forms.gle");
  });

  it("ignores lookalike hosts", () => {
    const claim = parser.parse("https://mbreciept.cbe.com.et.evil.example/v2-hfHCxGvIhvqVMTB7hylL");
    expect(claim?.shareUrl ?? null).toBeNull();
  });

  it("rejoins a token link broken across lines, and leaves a whole one alone", () => {
    const wrapped =
      "Thanks for Banking with CBE.\nhttps://mbreciept.cbe.com.et/v2\n-hfHCxGxayyn332GrsZRI for\nfeedback:";
    expect(parser.parse(wrapped)?.transactionNumber).toBe("v2-hfHCxGxayyn332GrsZRI");
    const whole = "https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL\nfor feedback";
    expect(parser.parse(whole)?.transactionNumber).toBe("v2-hfHCxGvIhvqVMTB7hylL");
    // A screen's button under the link, its icon read as "i:": the whole token is not lengthened by it.
    const button =
      "Receipt link\nhttps://mbreciept.cbe.com.et/v2-\nVg1k8indd1NM3Tnu93XO\ni: C\tShare Done Receipt";
    expect(parser.parse(button)?.transactionNumber).toBe("v2-Vg1k8indd1NM3Tnu93XO");
  });

  it("reads the receiving account's 8 digits from a legacy link, repairing OCR digits", () => {
    const claim = parser.parse("Ref FT26152K3M9T https://apps.cbe.com.et:100/?id=FT26152K3M9T0O215520");
    expect(claim).toMatchObject({ transactionNumber: "FT26152K3M9T", accountNumber: "00215520" });
    const branch = parser.parse("https://apps.cbe.com.et:100/BranchReceipt/FT26170NPPON&27204417");
    expect(branch).toMatchObject({ transactionNumber: "FT26170NPPON", accountNumber: "27204417" });
  });

  it("has no account number for a PDF receipt: it shows masked accounts only", () => {
    const text = "Commercial Bank of Ethiopia\nAccount1****6171\nReference No. (VAT Invoice No)FT26140P01YB";
    expect(parser.parse(text)?.accountNumber).toBeNull();
  });

  it("accepts an older bare token pasted alone, and a v2 token without its link", () => {
    expect(parser.parse("fHCxyV4mg5pRIwEkJO")?.transactionNumber).toBe("fHCxyV4mg5pRIwEkJO");
    expect(parser.detect("fHCxyV4mg5pRIwEkJO")).toBe(5);
    expect(parser.parse("receipt: v2-hfHCxzxlYzc8nHWc1MJG")?.transactionNumber).toBe(
      "v2-hfHCxzxlYzc8nHWc1MJG",
    );
  });

  it("returns null without any CBE reference, token or link", () => {
    expect(parser.parse("Thank you for your payment.").transactionNumber).toBeNull();
  });
});

describe("CBE receipt text: amounts and parties", () => {
  it("reads a label that OCR prefixed with a speck read as a quote mark", () => {
    const page = [
      "Commercial Bank of Ethiopia",
      "Reference No. (VAT Invoice No)\tFT26195A44H3",
      "‘Transferred Amount\t69,619.00 ETB",
      "Commission or Service Charge\t50.00 ETB",
    ].join("\n");
    expect(parser.parse(page)?.receipt.amount).toBe(69619);
  });

  it("takes the transferred amount, not the total with fees", () => {
    expect(parser.parse(SMS)?.receipt.amount).toBe(50);
    const pdf = [
      "Commercial Bank of Ethiopia",
      "Reference No. (VAT Invoice No)FT26140P01YB",
      "Payment Date & Time5/20/2026, 7:29:00 PM",
      "Transferred Amount20,000.00 ETB",
      "Commission or Service Charge10.00 ETB",
      "Total amount debited from customers account20,012.00 ETB",
    ].join("\n");
    expect(parser.parse(pdf)?.receipt).toMatchObject({
      amount: 20000,
      transactionDate: "2026-05-20T19:29:00+03:00",
    });
    const modal =
      "ETB 1,500.00 debited from A B for C D-ETB-6171 on 20-May-2026 with transaction ID: FT26140P01YB. Total Amount Debited ETB 1510.00";
    expect(parser.parse(modal)?.receipt.amount).toBe(1500);
  });

  it("reads OCR amounts with letter O for zero", () => {
    const text =
      "Tin: 0000006966\nReference No. (VAT Invoice No): FT26170NPPON\nTransferred Amount: 1,25O.OO ETB";
    expect(parser.parse(text)?.receipt.amount).toBe(1250);
  });

  it("names the owner of a received-money SMS as the receiver", () => {
    const text =
      "Dear Petros Abebe You have received ETB 2,000.00 from account 1**0947 (Hana Tesfaye) to your account 1**7112. Thanks for Banking with CBE. https://mbreciept.cbe.com.et/v2-hfHCxzxlYzc8nHWc1MJG";
    expect(parser.parse(text)?.receipt).toMatchObject({
      amount: 2000,
      payerName: "Hana Tesfaye",
      payerAccount: "1**0947",
      receiverName: "Petros Abebe",
      receiverAccount: "1**7112",
    });
  });

  it("reads a numeric SMS date day-first unless the reference's day says otherwise", () => {
    expect(readDate("05/09/2026 at 10:12", "dmy")).toBe("2026-09-05T10:12:00+03:00");
    // FT26129… was booked on 9 May 2026: "05/09" is then month-first.
    expect(readDate("05/09/2026 at 10:12", "dmy", "FT26129ABCDE")).toBe("2026-05-09T10:12:00+03:00");
    expect(readDate("5/20/2026, 7:29:00 PM", "dmy")).toBe("2026-05-20T19:29:00+03:00");
    expect(readDate("Jun 19, 2026, 4:45 PM", "mdy")).toBe("2026-06-19T16:45:00+03:00");
    expect(readDate("20-May-2026", "dmy")).toBe("2026-05-20T00:00:00+03:00");
    expect(readDate("31/02/2026", "dmy")).toBeNull();
  });
});

describe("CBE detection", () => {
  it("leaves a bare FT reference ambiguous between the FT banks", () => {
    expect(parser.detect("FT26140P01YB")).toBe(1);
    const detection = detectBank("FT26140P01YB");
    expect(detection.kind).toBe("ambiguous");
    if (detection.kind === "ambiguous") {
      expect(detection.candidates).toEqual(expect.arrayContaining(["cbe", "boa", "amhara", "cbebirr"]));
    }
  });

  it("scores host, TIN and name 10, CBE-only labels 5", () => {
    expect(parser.detect(SMS)).toBe(10);
    expect(parser.detect("Tin0000006966\nFT26140P01YB")).toBe(10);
    expect(
      parser.detect("Reference No. (VAT Invoice No)FT26140P01YB\nCommission or Service Charge0.00 ETB"),
    ).toBe(5);
    expect(parser.detect("ETB 100.00 debited from A for B-ETB-6171 on 20-May-2026")).toBe(5);
  });

  it("knows its own screen when OCR lost the name's last letter or read the host's dots as spaces", () => {
    // A blurred screenshot of the app's transaction details (FT references are every FT bank's shape).
    const screen = (header: string, link: string) =>
      [header, "Transaction Details", "Transaction ID\tFT262398S4KM", "Receipt link", link].join("\n");
    const blurred = screen("‘9 Commercial Bank of Ethiopi;", "https://mbreciept.cbe.com et/v2-");
    expect(detectBank(blurred)).toEqual({ kind: "detected", bank: "cbe" });
    expect(detectBank(screen("Commercial Bank of Ethiopi;", "Download PDF"))).toEqual({
      kind: "detected",
      bank: "cbe",
    });
    expect(detectBank(screen("Details", "https://mbreciept.cbe.com et/v2-"))).toEqual({
      kind: "detected",
      bank: "cbe",
    });
    expect(RECEIPT_PARSERS.cbe.parse(blurred)?.transactionNumber).toBe("FT262398S4KM");
  });

  it("does not claim another bank's receipt that names CBE as the other side", () => {
    const telebirr = "PVH t¢NL N9°/Credited Party name Commercial Bank of Ethiopia\nInvoice No. CGHLDQDUD";
    expect(parser.detect(telebirr)).toBe(0);
    const boa =
      "Source Account Name ABEBE\nBank Name\nCommercial Bank of Ethiopia\nTransaction Reference FT26167ZVPCJ";
    expect(parser.detect(boa)).toBe(1);
    expect(
      parser.detect("You have transferred ETB 500 to Commercial Bank of Ethiopia account 1000123456789"),
    ).toBe(0);
  });

  it("leaves CBE Birr receipts, issued under CBE's name, to the wallet", () => {
    const wallet = [
      "Commercial Bank of Ethiopia",
      "VAT Invoice/ Customer Receipt",
      "Debit Account251911234567",
      "Order IDFT26268WQ7XZ",
      "DIP41PM7JL2026-09-25 16:3920.00",
      "Paid amount",
    ].join("\n");
    expect(parser.detect(wallet)).toBeLessThanOrEqual(1);
    expect(detectBank(wallet)).toEqual({ kind: "detected", bank: "cbebirr" });
  });
});

describe("CBE receipt page: its date as OCR read it", () => {
  const dateOn = (...lines: string[]) =>
    RECEIPT_PARSERS.cbe.parse(["Commercial Bank of Ethiopia", ...lines].join("\n"))?.receipt.transactionDate;

  it("reads a date alone on its line month or day first as the reference's day says", () => {
    // OCR lost the label column: the values are left, the page's M/D/YYYY date among them.
    const read = (date: string, reference: string) =>
      dateOn("VAT Invoice / Customer Receipt", date, reference, "214,701.00 ETB");
    // FT26100…: day 100 of 2026, 10 April.
    expect(read("4/10/2026, 11:43:53 AM", "FT26100T6WLT")).toBe("2026-04-10T11:43:53+03:00");
    // FT26277…: day 277, 4 October.
    expect(read("10/4/2026, 11:43:53 AM", "FT26277T6WLT")).toBe("2026-10-04T11:43:53+03:00");
  });

  it("takes a date whose slash OCR read as a digit only when the repair spells the reference's day", () => {
    const read = (date: string, reference: string) =>
      dateOn(
        `Payment Date & Time\t${date}`,
        `Reference No. (VAT Invoice No)\t${reference}`,
        "Transferred Amount\t64.35 ETB",
      );
    // FT26272…: day 272 of 2026, 29 September; FT26033…: day 33, 2 February.
    expect(read("9729/2026, 5:10:11 PM", "FT262728AVLN")).toBe("2026-09-29T17:10:11+03:00");
    expect(read("272/2026, 12:06:33 PM", "FT26033PDP8Y")).toBe("2026-02-02T12:06:33+03:00");
    // A repair that spells another day (9/27, or 2/7) is not taken: the date stays unread.
    expect(read("9729/2026, 5:10:11 PM", "FT26270AVLN1")).toBeUndefined();
    expect(read("272/2026, 12:06:33 PM", "FT26038PDP8Y")).toBeUndefined();
  });
});
