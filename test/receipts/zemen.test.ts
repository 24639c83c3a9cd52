import { describe, expect, it } from "vitest";
import { detectBank } from "../../src/receipts/detect.js";
import { zemenReceiptParser as parser } from "../../src/receipts/parsers/zemen.js";

const TOKEN = "94497018108ATWR2520600HM";
const LINK = `https://share.zemenbank.com/rt/${TOKEN}/pdf`;
const PDF_TEXT = [
  "ZEMEN BANK",
  "Customer Receipt",
  "Invoice No.:2518000451",
  "Date:29-Jun-2025, 10:55:59 am",
  "Payer name:LIDYA MULUGETA ABERA",
  "Payer account no.:1021******018",
  "Recipient name:EYOB TESHOME",
  "Recipient account no.:1031110045678010",
  "Reference No:108ATWR2518000QK",
  "Transaction status:Successful",
  "Transaction DetailTRANSFER TO 1031110045678010",
  "Settled AmountETB 480.50",
  "Service Charge ETB3.00",
  "VAT 15% ETB0.45",
  "Total Amount Paid ETB483.95",
].join("\n");

describe("Zemen receipt text: tokens", () => {
  it("has no usable reference in the PDF text alone: the printed Reference No. cannot be looked up", () => {
    expect(parser.parse(PDF_TEXT)).toBeNull();
    expect(parser.parse("Zemen Bank\nReference No: 108ATWR2518000QK")).toBeNull();
  });

  it("takes the share link's token, with the receipt's fields", () => {
    expect(parser.parse(`${PDF_TEXT}\n${LINK}`)).toMatchObject({
      bank: "zemen",
      transactionNumber: TOKEN,
      accountNumber: null,
      shareUrl: LINK,
      receipt: { amount: 480.5, payerName: "LIDYA MULUGETA ABERA", status: "completed" },
    });
  });

  it("takes a link without /pdf, and keeps the token's case as printed", () => {
    const lower = "94497018108atwr2520600hm";
    expect(parser.parse(`https://share.zemenbank.com/rt/${lower}`)).toMatchObject({
      transactionNumber: lower,
      shareUrl: `https://share.zemenbank.com/rt/${lower}`,
    });
  });

  it("returns the claim without a reference when the link's token is damaged", () => {
    const claim = parser.parse(`${PDF_TEXT}\nhttps://share.zemenbank.com/rt/${TOKEN.slice(0, 23)}/pdf`);
    expect(claim).toMatchObject({ transactionNumber: null, shareUrl: null, receipt: { amount: 480.5 } });
  });

  it("repairs only the token's YYDDD date digits", () => {
    expect(parser.parse("share.zemenbank.com/rt/94497018108ATWR252O600HM/pdf")?.transactionNumber).toBe(
      TOKEN,
    );
    // The prefix, the branch and the tail may hold letters: an O there stays an O.
    expect(
      parser.parse("https://share.zemenbank.com/rt/944970181O8ATWR2520600HM/pdf")?.transactionNumber,
    ).toBe("944970181O8ATWR2520600HM");
    expect(
      parser.parse("https://share.zemenbank.com/rt/94497018108ATWR25206OOHM/pdf")?.transactionNumber,
    ).toBe("94497018108ATWR25206OOHM");
  });

  it("takes a bare token only when it has the known layout", () => {
    expect(parser.parse(`Zemen Bank\nToken: ${TOKEN}`)).toMatchObject({
      transactionNumber: TOKEN,
      shareUrl: null,
    });
    expect(parser.parse("Zemen Bank\n3f9a0c44b7e1d25f63a8b0c1")).toBeNull();
  });

  it("never takes a lookalike host, userinfo or plain http as the share link", () => {
    for (const url of [
      `https://share.zemenbank.com.evil.com/rt/${TOKEN}/pdf`,
      `https://evil-share.zemenbank.com/rt/${TOKEN}/pdf`,
      `https://x@share.zemenbank.com/rt/${TOKEN}/pdf`,
      `http://share.zemenbank.com/rt/${TOKEN}/pdf`,
    ]) {
      const claim = parser.parse(`${PDF_TEXT}\n${url}`);
      expect(claim?.shareUrl ?? null, url).toBeNull();
    }
  });
});

describe("Zemen receipt text: amounts and fields", () => {
  it("takes the settled amount, not Total Amount Paid", () => {
    expect(parser.parse(`${LINK}\n${PDF_TEXT}`)?.receipt).toMatchObject({ amount: 480.5, currency: "ETB" });
  });

  it("derives the settled amount from the total minus charges, never the total itself", () => {
    const withoutSettled = PDF_TEXT.replace("Settled AmountETB 480.50\n", "");
    expect(parser.parse(`${LINK}\n${withoutSettled}`)?.receipt.amount).toBe(480.5);
    const noCharges = withoutSettled.replace("Service Charge ETB3.00\n", "");
    expect(parser.parse(`${LINK}\n${noCharges}`)?.receipt.amount).toBeUndefined();
  });

  it("reads what a photo missing its status still states, with O read for 0 in figures", () => {
    const photo = PDF_TEXT.replace("Transaction status:Successful\n", "")
      .replace("29-Jun-2025", "29-Jun-2O25")
      .replace("ETB 480.50", "ETB 48O.5O");
    const claim = parser.parse(`${LINK}\n${photo}`);
    expect(claim?.receipt).toMatchObject({
      amount: 480.5,
      transactionDate: "2025-06-29T10:55:59+03:00",
      receiverName: "EYOB TESHOME",
    });
    expect(claim?.receipt.status).toBeUndefined();
  });

  it("passes an unknown status on lowercased", () => {
    const pending = PDF_TEXT.replace("Successful", "Pending");
    expect(parser.parse(`${LINK}\n${pending}`)?.receipt.status).toBe("pending");
  });

  it("gives a link alone an empty receipt", () => {
    expect(parser.parse(LINK)?.receipt).toEqual({});
  });
});

describe("Zemen receipt text: detection", () => {
  it("scores the share host 10, with or without scheme", () => {
    expect(parser.detect(LINK)).toBe(10);
    expect(parser.detect(`ft share.zemenbank.com/rt/${TOKEN}/pdf`)).toBe(10);
  });

  it("scores the name with Zemen's labels or a token 10", () => {
    expect(parser.detect(PDF_TEXT)).toBe(10);
    expect(parser.detect(`Zemen Bank ${TOKEN}`)).toBe(10);
  });

  it("scores the labels alone, the token alone or the name alone 5", () => {
    expect(parser.detect(PDF_TEXT.replace("ZEMEN BANK", ""))).toBe(5);
    expect(parser.detect(TOKEN)).toBe(5);
    // A telebirr receipt paid to Zemen Bank names it as the credited party.
    expect(parser.detect("Credited Party name Zemen Bank\nSettled Amount 500.00 Birr")).toBe(5);
  });

  it("scores the name with an ETTB reference 10 (banks.md §1.2: ETTB… is Zemen's)", () => {
    const text = "Zemen Bank\nReference No: 107ETTB261540027\nAmount ETB 2,000.00";
    expect(parser.detect(text)).toBe(10);
    expect(detectBank(text)).toEqual({ kind: "detected", bank: "zemen" });
    expect(parser.detect("Ref ETTB261540027")).toBe(5);
    // Still no usable reference: only the share link's token can be looked up.
    expect(parser.parse(text)).toBeNull();
  });

  it("does not count labels other banks share (Settled Amount, Invoice No.)", () => {
    expect(parser.detect("Invoice No. DFH51OFIED\nSettled Amount 60.00 Birr\nRecipient name: A")).toBe(0);
  });
});
