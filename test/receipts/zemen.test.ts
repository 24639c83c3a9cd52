import { describe, expect, it } from "vitest";
import { zemenReceiptParser as parser } from "../../src/banks/zemen/receipt.js";
import { detectBank } from "../../src/receipts/detect.js";

const TOKEN = "94497018108ATWR2520600HM";
const LINK = `https://share.zemenbank.com/rt/${TOKEN}/pdf`;
const PRINTED_REFERENCE = "108ATWR2518000QK";
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
  it("claims the printed Reference No. of PDF text without a link (the engine explains it cannot be looked up alone)", () => {
    expect(parser.parse(PDF_TEXT)).toMatchObject({ transactionNumber: PRINTED_REFERENCE, shareUrl: null });
    expect(parser.parse("Zemen Bank\nReference No: 108ATWR2518000QK")?.transactionNumber).toBe(
      "108ATWR2518000QK",
    );
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

  it("repairs OCR's figures in the type letters of a token and of a printed reference", () => {
    const sms =
      "Ref No 610U0Z0261110024.\nReceipt: https://share.zemenbank.com/rt/16472800610U0Z0261110024/pdf";
    expect(parser.parse(sms).transactionNumber).toBe("16472800610UOZO261110024");
    expect(parser.parse("Zemen Bank\nReference No: 105FTM82630308NS").transactionNumber).toBe(
      "105FTMB2630308NS",
    );
  });

  it("falls back to the printed Reference No. when the link's token is damaged", () => {
    const claim = parser.parse(`${PDF_TEXT}\nhttps://share.zemenbank.com/rt/${TOKEN.slice(0, 23)}/pdf`);
    expect(claim).toMatchObject({
      transactionNumber: PRINTED_REFERENCE,
      shareUrl: null,
      receipt: { amount: 480.5 },
    });
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
    expect(parser.parse("Zemen Bank\n3f9a0c44b7e1d25f63a8b0c1").transactionNumber).toBeNull();
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
    // Claimed as printed: only the share link's token can be looked up, which the engine explains.
    expect(parser.parse(text)?.transactionNumber).toBe("107ETTB261540027");
  });

  it("does not count labels other banks share (Settled Amount, Invoice No.)", () => {
    expect(parser.detect("Invoice No. DFH51OFIED\nSettled Amount 60.00 Birr\nRecipient name: A")).toBe(0);
  });
});

describe("Zemen receipt text: layouts and wordings", () => {
  const VALUES_BELOW = PDF_TEXT.replace(
    /^(Invoice No\.:|Date:|Payer name:|Payer account no\.:|Recipient name:|Recipient account no\.:|Reference No:|Transaction status:)/gm,
    "$1\n",
  )
    .replace(/^(Settled Amount)/m, "$1\n")
    .replace(/^(Total Amount Paid ETB)/m, "Total Amount Paid\nETB ");

  it("reads values printed above their labels, as some PDF extractors give them", () => {
    const lines = VALUES_BELOW.split("\n");
    // Swap each label with the value under it: value, then label.
    const above: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      const next = lines[i + 1];
      if (/:$|^Settled Amount$|^Total Amount Paid$/.test(line) && next !== undefined) {
        above.push(next, line);
        i++;
      } else above.push(line);
    }
    const claim = parser.parse(above.join("\n"));
    expect(claim).toMatchObject({
      transactionNumber: PRINTED_REFERENCE,
      receipt: {
        amount: 480.5,
        transactionDate: "2025-06-29T10:55:59+03:00",
        payerName: "LIDYA MULUGETA ABERA",
        payerAccount: "1021******018",
        receiverName: "EYOB TESHOME",
        status: "completed",
      },
    });
  });

  it("keeps values under their labels when that is the layout", () => {
    expect(parser.parse(VALUES_BELOW)?.receipt).toMatchObject({
      amount: 480.5,
      payerName: "LIDYA MULUGETA ABERA",
      receiverName: "EYOB TESHOME",
      transactionDate: "2025-06-29T10:55:59+03:00",
    });
  });

  it("joins a time wrapped under its date", () => {
    const wrapped = PDF_TEXT.replace("Date:29-Jun-2025, 10:55:59 am", "Date 29-Jun-2025,\n10:55:59 am");
    expect(parser.parse(wrapped)?.receipt.transactionDate).toBe("2025-06-29T10:55:59+03:00");
  });

  it("repairs OCR look-alikes only in the YYDDD of a printed 16-character reference", () => {
    const ocr = PDF_TEXT.replace("Reference No:108ATWR2518000QK", "Reference No: 108ATWR25l8O00QK");
    expect(parser.parse(ocr)?.transactionNumber).toBe("108ATWR2518000QK");
    // The tail may hold letters: an O there stays an O.
    const tail = PDF_TEXT.replace("Reference No:108ATWR2518000QK", "Reference No: 108ATWR25180O0QK");
    expect(parser.parse(tail)?.transactionNumber).toBe("108ATWR25180O0QK");
  });

  it("claims an SMS's Ref No. / Ref:, and the owner's Zemen account settles detection", () => {
    const sms =
      "Dear ABEBE KEBEDE, your Zemen Bank account 1021******4410 was debited with ETB 75 on 02-Mar-2026 for transfer to SARA TADESSE (1031******5521). Ref No. 104ATWR2606107QD. Available balance: ETB 10.00.";
    expect(parser.detect(sms)).toBe(10);
    expect(detectBank(sms)).toEqual({ kind: "detected", bank: "zemen" });
    expect(parser.parse(sms)?.transactionNumber).toBe("104ATWR2606107QD");
    expect(
      parser.parse("Zemen Bank: credited with ETB 5.00. Ref: 102FTMB2606107QA.")?.transactionNumber,
    ).toBe("102FTMB2606107QA");
  });

  it("reads the app's success screen: From / To rows of account and name, Amount on the next line", () => {
    const screen = [
      "Transfer Successful",
      "Amount",
      "ETB 1,2OO.OO",
      "From 1041******2207 KIDIST ALEMU",
      "To 1000****8899 SOLOMON ABEBE",
      "Date | 03-Mar-2026, O8:15:2O pm",
      "Reference No: 104FTMB2606207QZ",
      "Zemen Bank",
    ].join("\n");
    expect(parser.parse(screen)).toMatchObject({
      transactionNumber: "104FTMB2606207QZ",
      receipt: {
        status: "completed",
        amount: 1200,
        transactionDate: "2026-03-03T20:15:20+03:00",
        payerName: "KIDIST ALEMU",
        payerAccount: "1041******2207",
        receiverName: "SOLOMON ABEBE",
        receiverAccount: "1000****8899",
      },
    });
  });

  it("reads the app's Sender / Receiver rows, taking Amount and never Total", () => {
    const receipt = [
      "Zemen Bank Mobile",
      "Sender Name : ABEBE KEBEDE",
      "Sender Account : 1021******4410",
      "Receiver Name : SARA TADESSE",
      "Receiver Account : 1031******5521",
      "Total : ETB 507.75",
      "Amount : ETB 500.00",
      "Service Charge : ETB 6.75",
      "VAT (15%) : ETB 1.00",
      "Date : 05-May-2026, 09:00:00 am",
      "Reference No : 105IBTR2612505CB",
      "Status : Pending",
    ].join("\n");
    expect(parser.parse(receipt)?.receipt).toMatchObject({
      amount: 500,
      status: "pending",
      payerName: "ABEBE KEBEDE",
      receiverAccount: "1031******5521",
      transactionDate: "2026-05-05T09:00:00+03:00",
    });
  });

  it("reads no app rows from an SMS whose lines start with 'to:' and a name", () => {
    const sms =
      "Dear A B,\nyour account 1031******9276 was debited with ETB 300.00\nto: C D\nRef: 103FTMB2630511PT";
    expect(parser.parse(sms)?.receipt).toEqual({});
  });
});
