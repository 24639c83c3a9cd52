import { describe, expect, it } from "vitest";
import { mpesaReceiptParser as parser } from "../../src/banks/mpesa/receipt.js";

const SMS =
  "Dear Yonas, you have sent 2.00 Birr to Tesfaye Adare Weldekidan 251714***707 on 24/7/26 at 11:53 AM. " +
  "Transaction number UGO4D2CODA. Transaction fee 0.00 Birr. Your current  M-PESA balance is 10.00 Birr. " +
  "Get your receipt here: https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA " +
  "Get extra 20MB when you buy 100MB daily bundle via M-PESA for 5 birr.";

const RECEIPT = [
  "M-PESA",
  "Send Money 2026-09-03 08:15:40 EAT",
  "RECEIPT NO 1F7D09C2A86E3B45",
  "TRANSACTION ID SJ72HK3YZ9",
  "PAYER NAME MERON ASFAW KEBEDE",
  "PAYER PHONE NUMBER 251700918264",
  "RECEIVER NAME HIRUT BEKELE DESTA",
  "RECEIVER NUMBER 251711556043",
  "5.00 Birr / SERVICE FEE / 0.75 Birr + 15% VAT",
  "TOTAL 1,255.75",
].join("\n");

describe("M-Pesa receipt text: references", () => {
  it("takes TRANSACTION ID, never RECEIPT NO", () => {
    expect(parser.parse("RECEIPT NO UX12345678\nTRANSACTION ID UGO4D2CODA")?.transactionNumber).toBe(
      "UGO4D2CODA",
    );
    expect(parser.parse("TRANSACTION IDUFS98HOPQJRECEIPT NO9A0C44B7E1D25F63")?.transactionNumber).toBe(
      "UFS98HOPQJ",
    );
    expect(parser.parse("M-PESA\nRECEIPT NO UX12345678").transactionNumber).toBeNull();
  });

  it("repairs only the two leading letters (5 → S, 1 → I)", () => {
    expect(parser.parse("TRANSACTION ID 5J72HK3YZ9")?.transactionNumber).toBe("SJ72HK3YZ9");
    expect(parser.parse("Transaction number U13K7M2Q9X.")?.transactionNumber).toBe("UI3K7M2Q9X");
  });

  it("never repairs the mixed part: O and 0 both occur there", () => {
    expect(parser.parse("Transaction number UGO4D2CODA.")?.transactionNumber).toBe("UGO4D2CODA");
    expect(parser.parse("Transaction number UG04D2C0DA.")?.transactionNumber).toBe("UG04D2C0DA");
  });

  it("never takes a phone number or another figure for a reference", () => {
    expect(parser.parse("PAYER PHONE NUMBER 2517124803\nTOTAL 2.00").transactionNumber).toBeNull();
    expect(
      parser.parse("Dear Yonas, you have sent 2.00 Birr to A B 251714***707 on 24/7/26 at 11:53 AM.")
        .transactionNumber,
    ).toBeNull();
  });

  it("reads the older 'CODE Confirmed.' style and says completed only there", () => {
    const older = parser.parse(
      "UFS98HOPQJ Confirmed. You have sent 500.00 Birr to JANE DOE 251712345678 on 3/7/26 at 10:15 AM.",
    );
    expect(older).toMatchObject({
      transactionNumber: "UFS98HOPQJ",
      receipt: {
        status: "completed",
        amount: 500,
        transactionDate: "2026-07-03T10:15:00+03:00",
        receiverName: "JANE DOE",
        receiverAccount: "251712345678",
      },
    });
    expect(parser.parse(SMS)?.receipt.status).toBeUndefined();
  });
});

describe("M-Pesa receipt text: links", () => {
  it("takes the receipt link and gives it back as found", () => {
    expect(parser.parse(SMS)).toMatchObject({
      transactionNumber: "UGO4D2CODA",
      shareUrl: "https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA",
    });
  });

  it("never takes a lookalike host or plain http as the receipt link", () => {
    for (const url of [
      "https://m-pesabusiness.safaricom.et.evil.com/receipt/UFS98HOPQJ",
      "https://evil-m-pesabusiness.safaricom.et/receipt/UFS98HOPQJ",
      "http://m-pesabusiness.safaricom.et/receipt/UFS98HOPQJ",
      "https://forms.gle/UFS98HOPQJ",
    ]) {
      const claim = parser.parse(SMS.replace("https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA", url));
      expect(claim?.shareUrl, url).toBeNull();
      expect(claim?.transactionNumber, url).toBe("UGO4D2CODA");
    }
  });

  it("reads a link without scheme from a screenshot's address bar", () => {
    expect(parser.parse("m-pesabusiness.safaricom.et/receipt/UGO4D2CODA")).toMatchObject({
      transactionNumber: "UGO4D2CODA",
      shareUrl: "https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA",
    });
  });
});

describe("M-Pesa receipt text: amounts and fields", () => {
  it("takes TOTAL minus SERVICE FEE and 15% VAT as the amount, as the adapter does", () => {
    expect(parser.parse(RECEIPT)?.receipt).toMatchObject({
      amount: 1250,
      currency: "ETB",
      status: "completed",
    });
  });

  it("takes the SMS's sent amount, not the transaction fee or the balance", () => {
    const text = SMS.replace("Transaction fee 0.00 Birr", "Transaction fee 5.75 Birr");
    expect(parser.parse(text)?.receipt).toMatchObject({ amount: 2, currency: "ETB" });
  });

  it("gives no amount when a fee is listed but unreadable, and keeps the other fields", () => {
    const damaged = RECEIPT.replace(
      "5.00 Birr / SERVICE FEE / 0.75 Birr + 15% VAT",
      "SERVICE FEE\n15% VAT 0.75",
    );
    const claim = parser.parse(damaged);
    expect(claim?.receipt.amount).toBeUndefined();
    expect(claim).toMatchObject({
      transactionNumber: "SJ72HK3YZ9",
      receipt: { payerName: "MERON ASFAW KEBEDE", receiverAccount: "251711556043", status: "completed" },
    });
  });

  it("reads what a photo missing its date still states", () => {
    const claim = parser.parse(RECEIPT.replace("2026-09-03 08:15:40 EAT", ""));
    expect(claim?.receipt).toMatchObject({ amount: 1250, payerName: "MERON ASFAW KEBEDE" });
    expect(claim?.receipt.transactionDate).toBeUndefined();
  });

  it("reads O, S and l read for digits in amounts and dates", () => {
    const text = RECEIPT.replace("2026-09-03 08:15:40", "2026-O9-03 08:1S:4O").replace(
      "1,255.75",
      "l,2S5.75",
    );
    expect(parser.parse(text)?.receipt).toMatchObject({
      amount: 1250,
      transactionDate: "2026-09-03T08:15:40+03:00",
    });
  });

  it("reads every SMS verb with its counterparty on the right side", () => {
    const line = (verb: string, side: string) =>
      `Dear X, you have ${verb} 100.00 Birr ${side} JANE DOE 251712345678 on 28/6/26 at 7:04 PM. Transaction number UFS98HOPQK.`;
    expect(parser.parse(line("transferred", "to"))?.receipt).toMatchObject({
      amount: 100,
      receiverName: "JANE DOE",
      receiverAccount: "251712345678",
      transactionDate: "2026-06-28T19:04:00+03:00",
    });
    expect(parser.parse(line("received", "from"))?.receipt).toMatchObject({
      payerName: "JANE DOE",
      payerAccount: "251712345678",
    });
    expect(parser.parse(line("paid", "to"))?.receipt).toMatchObject({ receiverName: "JANE DOE" });
  });

  it("names no receiver for a bundle bought for a phone", () => {
    const text =
      "Dear Yonas, you have bought a Safaricom bundle of 5.00 Birr for 251717404913 on 28/6/26 at 7:04 PM. " +
      "Transaction number UFS98HOPQJ. Your current M-PESA balance is 37.00 Birr.";
    expect(parser.parse(text)?.receipt).toEqual({
      amount: 5,
      currency: "ETB",
      transactionDate: "2026-06-28T19:04:00+03:00",
    });
  });
});

describe("M-Pesa receipt text: detection", () => {
  it("scores the host, or the name with an M-Pesa label or phrase, 10", () => {
    expect(parser.detect("https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA")).toBe(10);
    expect(parser.detect(RECEIPT)).toBe(10);
    expect(parser.detect(SMS.replace(/https:\S+/, ""))).toBe(10);
  });

  it("scores an M-Pesa phrase alone, or the name alone, 5", () => {
    expect(
      parser.detect("UFS98HOPQJ Confirmed. You have paid 5.00 Birr to SHOP on 28/6/26 at 7:04 PM."),
    ).toBe(5);
    expect(parser.detect("Credited Party name: M-PESA Agent")).toBe(5);
  });

  it("scores a bare reference shape 1, and telebirr's SMS wording no more", () => {
    expect(parser.detect("UGO4D2CODA")).toBe(1);
    expect(
      parser.detect(
        "You have transferred ETB 60.00 to A (2519****4025). Your transaction number is DFH51OFIED.",
      ),
    ).toBe(1);
  });
});
