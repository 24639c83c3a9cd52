import { describe, expect, it } from "vitest";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { readLabelled } from "../../src/reading/receipt-lines.js";
import { detectBank } from "../../src/receipts/detect.js";

/**
 * Issue 14's six failure classes, each with examples that failed before its fix. The corpus
 * (reading-corpus.test.ts) measures the classes on texts nobody on the team wrote; these pin them down.
 */
const read = (bank: keyof typeof RECEIPT_PARSERS, text: string) => RECEIPT_PARSERS[bank].parse(text);

describe("1. one SMS reader for every bank", () => {
  it.each([
    [
      "zemen",
      "Dear SELAM TESFAYE, your account 1011****0123 has been debited with ETB 1,600.00 on 25-Jul-2025 at 10:55 AM. Receipt: https://share.zemenbank.com/rt/94497018108ATWR2520600HM/pdf",
      {
        amount: 1600,
        transactionDate: "2025-07-25T10:55:00+03:00",
        payerName: "SELAM TESFAYE",
        payerAccount: "1011****0123",
      },
    ],
    [
      "sinqee",
      "Dear GEMECHU BEKELE, your account 1000****5521 has been credited with ETB 3,250.00 from LENSA ABDISA on 07/09/2026 at 14:20. Ref FT262507XG9T https://siinqeebank.com/receipt/FT262507XG9T",
      {
        amount: 3250,
        transactionDate: "2026-09-07T14:20:00+03:00",
        receiverName: "GEMECHU BEKELE",
        payerName: "LENSA ABDISA",
      },
    ],
    [
      "amhara",
      "Dear Customer, You have transferred ETB 750.00 to ABEBE KEBEDE (1000****8899) on 05/09/2026 09:08:00. Transaction ID FT26248K7Q1P. Receipt: https://receipt.amharabank.com.et/?trx=FT26248K7Q1P",
      {
        amount: 750,
        transactionDate: "2026-09-05T09:08:00+03:00",
        receiverName: "ABEBE KEBEDE",
        receiverAccount: "1000****8899",
      },
    ],
    [
      "boa",
      "Dear HANA ALEMU, your account 1*4567 was credited with ETB 1,107.59 by DAWIT MEKONNEN on 19/07/2025 17:32. Receipt: https://cs.bankofabyssinia.com/slip/?trx=FT252003JZPP04567",
      { amount: 1107.59, receiverName: "HANA ALEMU", receiverAccount: "1*4567", payerName: "DAWIT MEKONNEN" },
    ],
    [
      "telebirr",
      "Dear Meron, You have transferred ETB 60.00 to Hana Girma (2519****4025) on 17/06/2026 18:14:15. Your transaction number is DFH51OFIED. https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
      { amount: 60, payerName: "Meron", receiverName: "Hana Girma", receiverAccount: "2519****4025" },
    ],
    [
      "mpesa",
      "Dear Abel Tesfaye, you have sent 2.00 Birr to MULU TADESSE 251714***707 on 24/7/26 at 11:53 AM. Transaction number UGO4D2CODA. Transaction fee 0.00 Birr. Get your receipt here: https://m-pesabusiness.safaricom.et/receipt/UGO4D2CODA",
      {
        amount: 2,
        payerName: "Abel Tesfaye",
        receiverName: "MULU TADESSE",
        transactionDate: "2026-07-24T11:53:00+03:00",
      },
    ],
  ] as const)("%s SMS: amount, date, status and both sides", (bank, text, fields) => {
    expect(read(bank, text)?.receipt).toMatchObject({ status: "completed", currency: "ETB", ...fields });
  });
});

describe("2. fees are taken off a debit, rates are never amounts", () => {
  it("Dashen: 100.48 debited = 100.00 + 0.40 fee + 0.06 VAT + 0.02 DRRF", () => {
    const text =
      "Dear Lensa, your account 5110****011 has been debited with ETB 100.48 on 2026-06-18 at 10:23:00. A service fee of ETB 0.4, VAT(15%) of ETB 0.06 and DRRF fee of ETB 0.02 have been applied. For receipt https://receipt.dashensuperapp.com/receipt/110IPSS2616900WO";
    expect(read("dashen", text)?.receipt).toMatchObject({ amount: 100 });
  });

  it("CBE: a transfer's fees are extra, and VAT(15%) is no amount of 15", () => {
    const text =
      "Dear ABEBE You have successfully transferred ETB50.00 from account 1**3928 to account 1**1758 (TSEHAY BEKELE) on 20-May-2026 at 19:29:00. Service charge of ETB 0.50 and VAT(15%) of ETB 0.08 Disaster Recovery(5%) of ETB 0.03. Thanks for Banking with CBE. https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL";
    expect(read("cbe", text)?.receipt).toMatchObject({ amount: 50, payerAccount: "1**3928" });
  });

  it("Siinqee: a debit with an excise tax and stamp duty", () => {
    const text =
      "Dear Customer, your account 1000****4411 has been debited with ETB 2,015.30 on 10/09/2026 at 11:02. Service charge ETB 10.00, VAT (15%) ETB 1.50, Stamp duty ETB 3.80. Ref FT262537XG9T";
    expect(read("sinqee", text)?.receipt).toMatchObject({ amount: 2000 });
  });
});

describe("3. glued labels and label/value layouts", () => {
  it("reads values glued to their labels (PDF text)", () => {
    const text = [
      "Siinqee Bank",
      "Transaction ReferenceFT262507XG9T",
      "Payer NameLensa Abdisa",
      "AmountETB 12,750.75",
      "Transaction Date2026-07-30 09:41:00",
    ].join("\n");
    expect(read("sinqee", text)).toMatchObject({
      transactionNumber: "FT262507XG9T",
      receipt: { amount: 12750.75, payerName: "Lensa Abdisa", transactionDate: "2026-07-30T09:41:00+03:00" },
    });
  });

  it("reads a tab- and colon-separated row", () => {
    const text = [
      "Awash Bank",
      "Customer Name\t:\tLENSA ABDISA",
      "Transaction Date\t:\t2026-06-07 11:22:00",
      "Transaction Type\t:\tSend To Bank",
      "Amount\t:\t3,000 ETB",
      "Transaction ID\t:\t260607112275735",
    ].join("\n");
    expect(read("awash", text)?.receipt).toMatchObject({ payerName: "LENSA ABDISA", amount: 3000 });
  });

  it("Siinqee page: the transfer amount, not the service charge; the payer account, not the next label", () => {
    const text = [
      "Siinqee Bank",
      "Transaction Reference",
      "FT262507XG9T",
      "Service Charge",
      "ETB 15.00",
      "Amount",
      "ETB 4,500.00",
      "Payer Account",
      "1000****7788",
      "Receiver Name",
      "CHALTU GUDETA",
    ].join("\n");
    expect(read("sinqee", text)?.receipt).toMatchObject({
      amount: 4500,
      payerAccount: "1000****7788",
      receiverName: "CHALTU GUDETA",
    });
  });
});

describe("4. times", () => {
  it("a 12-hour clock whose PM is on the next line is afternoon", () => {
    const text = [
      "Awash Bank",
      "Transaction Date : 2026-05-19 03:05:53",
      "PM",
      "Amount : 800.00",
      "Transaction ID : 260519150512345",
      "https://awashpay.awashbank.com:8225/-2KDL95Z0NR-4U61O6",
    ].join("\n");
    expect(read("awash", text)?.receipt.transactionDate).toBe("2026-05-19T15:05:53+03:00");
  });
});

describe("5. a readable receipt always gives its reference", () => {
  it("an Awash page without the link claims its 15-digit Transaction ID", () => {
    const text =
      "Awash Bank Share company\nTransfer successful\nAmount : 3,000 ETB\nTransaction ID : 260607112275735";
    expect(read("awash", text)).toMatchObject({ transactionNumber: "260607112275735", shareUrl: null });
  });

  it("a Zemen PDF without a share token claims its Reference No.", () => {
    const text = [
      "Zemen Bank",
      "Invoice No. 0012345",
      "Date 29-Jun-2025, 10:55:59 am",
      "Payer name: SELAM TESFAYE",
      "Reference No: 108ATWR2518000HM",
      "Transaction status: Success",
      "Settled Amount ETB 1,600.00",
    ].join("\n");
    expect(read("zemen", text)?.transactionNumber).toBe("108ATWR2518000HM");
  });
});

describe("6. bank detection", () => {
  it("a real Awash page is Awash's without a hint", () => {
    const text = [
      "Transfer successful",
      "Company Name : Awash Bank Share company",
      "TIN No : 0000030100",
      "Customer Name : LENSA ABDISA",
      "Transaction Type : Send To Bank",
      "Receiver Name : ABEBE KEBEDE",
      "Beneficiary Bank : Bank of Abyssinia",
      "Transaction ID : 260607112275735",
    ].join("\n");
    expect(detectBank(text)).toEqual({ kind: "detected", bank: "awash" });
  });

  it("OCR's 'Siingee' is Siinqee", () => {
    const text = "Siingee Bank\nTransaction Reference FT262507XG9T\nAmount ETB 4,500.00";
    expect(detectBank(text)).toEqual({ kind: "detected", bank: "sinqee" });
  });
});

describe("a column of values that OCR left one short", () => {
  it("is not read under shifted labels (a wrong value is worse than none)", () => {
    const lines = ["Source Account", "Payer Name", "Amount", "ABEBE KEBEDE", "ETB 1,107.59"];
    const labels = [
      ["account", /^Source Account/i],
      ["payer", /^Payer Name/i],
      ["amount", /^Amount/i],
    ] as const;
    const values = readLabelled(lines, [...labels]);
    expect(values.get("account")).toBeUndefined();
    expect(values.get("payer")).toBeUndefined();
  });
});
