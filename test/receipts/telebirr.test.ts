import { describe, expect, it } from "vitest";
import { telebirrReceiptParser as parser } from "../../src/banks/telebirr/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

const SMS =
  "Dear Dawit\nYou have transferred ETB 60.00 to Hana Tesfaye Alemu (2519****4025) on 17/06/2026 18:14:15. " +
  "Your transaction number is DFH51OFIED. The service fee is  ETB 0.87 and  15% VAT on the service fee is ETB 0.13. " +
  "Your current E-Money Account  balance is ETB 1,482.35. To download your payment information please click this link: " +
  "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED.\nThank you for using telebirr\nEthio telecom";

describe("telebirr receipt text: references", () => {
  it("repairs only the two leading letters of a reference (1 → I, 8 → B)", () => {
    expect(parser.parse("Invoice No. C189ORBSUJ")?.transactionNumber).toBe("CI89ORBSUJ");
    expect(parser.parse("Invoice No. 8KCOD2D9E")?.transactionNumber).toBe("BKCOD2D9E");
  });

  it("never repairs the mixed part: an O among digits may be a letter", () => {
    expect(parser.parse("Your transaction number is DIP54O52IR.")?.transactionNumber).toBe("DIP54O52IR");
    expect(parser.parse("Invoice No. DFH51OFIED")?.transactionNumber).toBe("DFH51OFIED");
    expect(parser.parse("Invoice No. DF72OMW388")?.transactionNumber).toBe("DF72OMW388");
  });

  it("uppercases references, which telebirr treats case-insensitively", () => {
    expect(
      parser.parse("https://transactioninfo.ethiotelecom.et/receipt/dfh51ofied")?.transactionNumber,
    ).toBe("DFH51OFIED");
  });

  it("never reads a figure (invoice, phone, TIN) into a reference", () => {
    expect(
      parser.parse("Ethio telecom TIN 0000030603\nPayer telebirr no. 251912345678\nTotal 2520600871")
        .transactionNumber,
    ).toBeNull();
  });

  it("returns null when the text has no telebirr reference or link", () => {
    expect(parser.parse("Thank you for using telebirr\nEthio telecom").transactionNumber).toBeNull();
    expect(parser.parse("").transactionNumber).toBeNull();
  });

  it("takes an older 9-character reference", () => {
    expect(parser.parse("Invoice No.\tCCP9E4VIT")?.transactionNumber).toBe("CCP9E4VIT");
  });
});

describe("telebirr receipt text: links", () => {
  it("takes the receipt link and ignores the SMS footer's other links", () => {
    const text = `${SMS}\nTelegram: https://t.me/telebirr\nVisit our website :https://www.ethiotelecom.et/telebirr/`;
    const claim = parser.parse(text);
    expect(claim?.shareUrl).toBe("https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED");
    expect(claim?.transactionNumber).toBe("DFH51OFIED");
  });

  it("never takes a lookalike host, userinfo, another port or plain http as the receipt link", () => {
    for (const url of [
      "https://transactioninfo.ethiotelecom.et.evil.com/receipt/DGS2BT1W54",
      "https://evil-transactioninfo.ethiotelecom.et/receipt/DGS2BT1W54",
      "https://x@transactioninfo.ethiotelecom.et/receipt/DGS2BT1W54",
      "https://transactioninfo.ethiotelecom.et:8443/receipt/DGS2BT1W54",
      "http://transactioninfo.ethiotelecom.et/receipt/DGS2BT1W54",
    ]) {
      const claim = parser.parse(`Your transaction number is DFH51OFIED. ${url}`);
      expect(claim?.shareUrl, url).toBeNull();
      expect(claim?.transactionNumber, url).toBe("DFH51OFIED");
    }
  });

  it("reads a link without scheme from a screenshot's address bar, repaired", () => {
    const claim = parser.parse("9:41 ~ transactioninfo.ethiotelecom.et/receipt/C189ORBSUJ\nPayer Name Abel");
    expect(claim).toMatchObject({
      transactionNumber: "CI89ORBSUJ",
      shareUrl: "https://transactioninfo.ethiotelecom.et/receipt/CI89ORBSUJ",
    });
  });

  it("prefers the link's reference and gives the link back as found", () => {
    const claim = parser.parse(SMS);
    expect(claim?.shareUrl).toBe("https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED");
  });
});

describe("telebirr receipt text: amounts and fields", () => {
  it("takes the transferred amount, not the fees, the balance or the total paid", () => {
    expect(parser.parse(SMS)?.receipt).toMatchObject({ amount: 60, currency: "ETB" });
    const page =
      "Invoice No.\tPayment date\tSettled Amount\nDET8FJGUJ4\t18-07-2025 19:58:20\t1100.00 Birr\n" +
      "Service fee\t5.22 Birr\nService fee VAT\t0.78 Birr\nTotal Paid Amount\t1106.00 Birr";
    expect(parser.parse(page)?.receipt.amount).toBe(1100);
  });

  it("has no amount when only the total paid is shown", () => {
    const claim = parser.parse("Invoice No. DET8FJGUJ4\nTotal Paid Amount 1106.00 Birr");
    expect(claim?.receipt.amount).toBeUndefined();
  });

  it("reads a page copied with every cell on its own line", () => {
    const text = [
      "የከፋይ ስም/Payer Name",
      "Abel Tesfaye",
      "የከፋይ ቴሌብር ቁ./Payer telebirr no.",
      "2519****1180",
      "የገንዘብ ተቀባይ ስም/Credited Party name",
      "Liya Bekele",
      "የገንዘብ ተቀባይ ቴሌብር ቁ./Credited party account no",
      "2519****4025",
      "የክፍያው ሁኔታ/transaction status",
      "Pending",
      "የክፍያ ቁጥር/Invoice No.",
      "የክፍያ ቀን/Payment date",
      "የተከፈለው መጠን/Settled Amount",
      "DGS2BT1W54",
      "01-09-2026 23:59:59",
      "12,500.75 Birr",
      "የደንበኛ ማስታወሻ/Customer Note",
      "የቤት ኪራይ",
    ].join("\n");
    expect(parser.parse(text)).toMatchObject({
      transactionNumber: "DGS2BT1W54",
      receipt: {
        // Any status but "Completed" is passed on as printed, lowercased.
        status: "pending",
        amount: 12500.75,
        transactionDate: "2026-09-01T23:59:59+03:00",
        payerName: "Abel Tesfaye",
        payerAccount: "2519****1180",
        receiverName: "Liya Bekele",
        receiverAccount: "2519****4025",
        // An Amharic note is a value, not a label half.
        description: "የቤት ኪራይ",
      },
    });
  });

  it("takes the bank account holder and number as the receiver of a transfer to a bank", () => {
    const text =
      "Credited Party name: Awash Bank\nCredited party account no: 0007\n" +
      "Bank account number: Getnet Tadesse - 01320******7400\nInvoice No. DF72OMW388";
    expect(parser.parse(text)?.receipt).toMatchObject({
      receiverName: "Getnet Tadesse",
      receiverAccount: "01320******7400",
    });
  });

  it("reads O/I read for digits in amounts and dates, and ignores stray marks", () => {
    const text =
      "| Invoice No. | DFH51OFIED\nPayment date ~ 17-O6-2026 18:14:1S\nSettled Amount • 1,25O.OO Birr";
    expect(parser.parse(text)?.receipt).toMatchObject({
      amount: 1250,
      transactionDate: "2026-06-17T18:14:15+03:00",
    });
  });

  it("names the payer of a received SMS and leaves out bank wording it cannot map to the receipt", () => {
    const received =
      "You have received ETB 290.00 from Kidist Haile(2519****0409)  on 25/09/2026 13:28:52. " +
      "Your transaction number is DIP54O52IR.";
    expect(parser.parse(received)?.receipt).toEqual({
      amount: 290,
      currency: "ETB",
      transactionDate: "2026-09-25T13:28:52+03:00",
      payerName: "Kidist Haile",
      payerAccount: "2519****0409",
    });
    const fromBank =
      "You have received  ETB 1,000.00 by transaction number DIT38LM4HL on 2026-09-29 08:52:33 from Nib " +
      "International Bank SC to your telebirr Account 251979409973 - Eyuel Teklu Berhe.";
    expect(parser.parse(fromBank)).toMatchObject({
      transactionNumber: "DIT38LM4HL",
      receipt: { amount: 1000, currency: "ETB", transactionDate: "2026-09-29T08:52:33+03:00" },
    });
    expect(parser.parse(fromBank)?.receipt.payerName).toBeUndefined();
  });

  it("reads a transfer SMS without time or phone", () => {
    const text =
      "Dear Ephrem\nYou have transferred ETB 600.00 to asefa aynalem on 31/05/2026. Your transaction number is DEV6HKJX7K.";
    expect(parser.parse(text)).toMatchObject({
      transactionNumber: "DEV6HKJX7K",
      receipt: { amount: 600, transactionDate: "2026-05-31T00:00:00+03:00" },
    });
  });
});

describe("telebirr receipt text: detection", () => {
  it("scores the host, the TIN, and the name with a telebirr phrase 10", () => {
    expect(parser.detect("https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED")).toBe(10);
    expect(parser.detect("Ethio telecom TIN 0000030603")).toBe(10);
    expect(parser.detect(SMS.replace(/https:\S+/, ""))).toBe(10);
    expect(parser.detect("የከፋይ ቴሌብር ቁ./Payer telebirr no. 2519****2872")).toBe(10);
  });

  it("scores a telebirr label alone, or the name alone (a counterparty elsewhere), 5", () => {
    expect(parser.detect("Credited Party name Hana")).toBe(5);
    expect(parser.detect("Awash Bank\nTelebirr Transfer\nPhone Number 0911223344")).toBe(5);
  });

  it("scores a bare reference shape, shared with M-Pesa and CBE Birr, 1 (2 with a telebirr service prefix); nothing 0", () => {
    expect(parser.detect("DGS2BT1W54")).toBe(1);
    // telebirr's service prefixes (docs/banks.md §1.2): DET, CHQ, DAB, DEL, ADQ, DEP and DF.
    expect(parser.detect("DFH51OFIED")).toBe(2);
    expect(detectBank("You have received 2,500.00 ETB. Transaction ID: CHQ0FJ403O")).toEqual({
      kind: "detected",
      bank: "telebirr",
    });
    expect(parser.detect("FT26140P01YB")).toBe(0);
    expect(parser.detect("Hello")).toBe(0);
  });
});

describe("telebirr receipt page on a narrow phone", () => {
  it("reads the invoice row's date and amount when the header labels wrapped over two lines", () => {
    // OCR of a phone's page after "Select all": "Payment date" and "Settled Amount" each broke in two.
    const text = [
      "Invoice details",
      "Invoice No. Payment\tSettled",
      "date\tAmount",
      "CHSY9ADLCO 05-09-2026\t12000.00 Birr",
      "13:23:39",
      "Stamp Duty\t0.00 Birr",
      "Service fee\t16.46 Birr",
      "Total Paid Amount\t12018.93 Birr",
    ].join("\n");
    expect(parser.parse(text)).toMatchObject({
      transactionNumber: "CHSY9ADLCO",
      receipt: { amount: 12000, transactionDate: "2026-09-05T13:23:39+03:00" },
    });
  });

  it("puts a time wrapped under the date cell back, when only the amount's label wrapped", () => {
    // "Payment date" whole, "Settled" over "Amount": the date's label finds the row, its time one line down.
    const text = [
      "Invoice details",
      "Invoice No.\tPayment date Settled",
      "Amount",
      "DF3RL7E15W\t11-05-2026\t12000.00 Birr",
      "14:30:52",
      "Stamp Duty\t0.00 Birr",
    ].join("\n");
    expect(parser.parse(text)?.receipt.transactionDate).toBe("2026-05-11T14:30:52+03:00");
  });

  it("reads the app screen's date and time when its label wrapped beside them", () => {
    const text = [
      "Transaction Details",
      "-1,520.00 (ETB)",
      "Transaction Type\tBuy Goods",
      "Transaction\t17/07/2026",
      "Time\t11:55:58",
      "Transaction\tADQPF5FUNI",
      "Number",
    ].join("\n");
    expect(parser.parse(text)?.receipt.transactionDate).toBe("2026-07-17T11:55:58+03:00");
    // Two dates and no label to tell them apart: neither is taken.
    expect(parser.parse(`${text}\nValid until 17/08/2026`)?.receipt.transactionDate).toBeUndefined();
  });
});
