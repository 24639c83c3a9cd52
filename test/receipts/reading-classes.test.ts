import { describe, expect, it } from "vitest";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { readLabelled } from "../../src/reading/receipt-lines.js";
import { detectBank } from "../../src/receipts/detect.js";

/**
 * Six failure classes of receipt reading, each with examples that failed before its fix. The corpus
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

  it("leaves the amount out when neither the figure nor the figure less its fees is whole birr", () => {
    // 1,417.42 sent, or 1,415.24 sent and 2.18 of fees? The message does not say; the bank's record will.
    const text =
      "Dear Hana, your account 1000****4411 has been debited with ETB 1,417.42 to ABEBE KEBEDE on 2026-09-17 10:11:12. Ref: FT262609OCD1. Service charge ETB 1.90, VAT ETB 0.28. Siinqee Bank";
    const receipt = read("sinqee", text)?.receipt;
    expect(receipt).toMatchObject({ payerAccount: "1000****4411", receiverName: "ABEBE KEBEDE" });
    expect(receipt?.amount).toBeUndefined();
    // A stated total still decides.
    expect(read("sinqee", `${text} Total ETB 1,419.60.`)?.receipt.amount).toBe(1417.42);
  });

  it("Dashen: the figure less its fees even when neither is whole birr (its real SMS holds the fees)", () => {
    const text =
      "Dear Lensa, your account 5110****011 has been debited with ETB 1,236.04 on 2026-06-18 at 10:23:00. A service fee of ETB 1.2, VAT(15%) of ETB 0.18 and DRRF fee of ETB 0.06 have been applied. For receipt https://receipt.dashensuperapp.com/receipt/110IPSS2616900WO";
    expect(read("dashen", text)?.receipt.amount).toBe(1234.6);
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

  it("a bare reference whose shape three wallets share names all three, telebirr's service prefix or not", () => {
    for (const reference of ["DAB7QX2LMN", " CHQ4KD81TZ\n", "KQ81ZT4WNM"]) {
      expect(detectBank(reference)).toEqual({
        kind: "ambiguous",
        candidates: ["telebirr", "cbebirr", "mpesa"],
      });
    }
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

describe("labels every bank shares, in every layout", () => {
  it("a CBE Birr credit SMS: the labelled Transaction ID, both sides, the lookup phone", () => {
    const text =
      "Dear SABA, You have received ETB 420.00 from TOLA GUTEMA (251911223344) on 2026-09-02 18:40. Transaction ID: DIP5TR8KQW. Your balance is ETB 1,020.00.";
    expect(read("cbebirr", text)).toMatchObject({
      transactionNumber: "DIP5TR8KQW",
      accountNumber: "251911223344",
      receipt: { amount: 420, payerName: "TOLA GUTEMA", payerAccount: "251911223344", receiverName: "SABA" },
    });
    expect(detectBank(`${text} Thank you for using CBE Birr.`)).toEqual({
      kind: "detected",
      bank: "cbebirr",
    });
  });

  it("an SMS naming the other side's bank or wallet before the account", () => {
    const sms =
      "Dear HANA, you have transferred 900.00 Birr to Awash Bank account 0142****5566 DEREJE ALEMU on 2/10/26 at 9:15 AM. Transaction number UK7Q2ZT4MB. https://m-pesabusiness.safaricom.et/receipt/UK7Q2ZT4MB";
    expect(read("mpesa", sms)?.receipt).toMatchObject({
      receiverName: "DEREJE ALEMU",
      receiverAccount: "0142****5566",
    });
    const toWallet =
      "Dear Customer, ETB 300.00 has been debited from your account 01320******1188 for transfer to telebirr 2519****7788 on 2026-09-30 08:01:02. https://awashpay.awashbank.com:8225/-2KHIA8CMO9-2PL6DV";
    const receipt = read("awash", toWallet)?.receipt;
    expect(receipt?.receiverAccount).toBe("2519****7788");
    expect(receipt?.receiverName).toBeUndefined();
  });

  it("an app screen: heading amount, a signed debit, the account under the receiver's name", () => {
    const text = [
      "Successful",
      "-2,000.00(ETB)",
      "Transaction Number",
      "DF8K2MX4QA",
      "Transaction To",
      "Meron Tadesse",
      "2519****1122",
      "Service Charge",
      "3.48(ETB)",
      "Total",
      "-2,004.00(ETB)",
    ].join("\n");
    expect(read("telebirr", text)?.receipt).toMatchObject({
      amount: 2000,
      status: "completed",
      receiverName: "Meron Tadesse",
      receiverAccount: "2519****1122",
    });
  });

  it("PDF text with every value above its label", () => {
    const text = [
      "CBE Birr",
      "MARTA GIRMA",
      "Customer Name:",
      "251955443322",
      "Debit Account",
      "0911998877 - ABEL TESHOME",
      "Credit Account",
      "ABEL TESHOME",
      "Receiver Name",
      "Completed",
      "Transaction Status",
      "CGU2WQ7ZKP2026-08-11 09:152,000.00",
      "Receipt NumberTransaction DateAmount",
      "2,000.00",
      "Paid amount",
      "7.00",
      "Service Charge",
    ].join("\n");
    expect(read("cbebirr", text)).toMatchObject({
      transactionNumber: "CGU2WQ7ZKP",
      accountNumber: "251955443322",
      receipt: {
        amount: 2000,
        payerName: "MARTA GIRMA",
        receiverName: "ABEL TESHOME",
        receiverAccount: "0911998877",
      },
    });
  });

  it("a page flattened onto one line, and a decimal point never read as a label's end", () => {
    const flat =
      "Dashen Bank Receipt Sender Name: LIYA HAILE Receiver Name: SOLOMON ABEBE Transaction Reference: 263WDTI2612300W8 Transaction Date: Sep 3, 2026, 10:11:00 am Transaction Amount ETB 1,275.50 Narrative: rent";
    expect(read("dashen", flat)?.receipt).toMatchObject({
      amount: 1275.5,
      payerName: "LIYA HAILE",
      receiverName: "SOLOMON ABEBE",
    });
    const glued = "AMHARA BANK S.C.\nTransaction ReferenceFT26240QW3RT\nAmountETB 4,250.25\nStatusSuccess";
    expect(read("amhara", glued)?.receipt.amount).toBe(4250.25);
  });

  it("an 'Account' row is the account of the side named above it", () => {
    const text = [
      "Siinqee Bank",
      "Customer Name : ROBA DINKA",
      "Account Number : 1000****4411",
      "Beneficiary Name : Chaltu Urgessa",
      "Beneficiary Account : 1000****9900",
      "Transaction Amount : ETB 6,000.00",
      "Reference No : FT26241MK7PA",
    ].join("\n");
    expect(read("sinqee", text)?.receipt).toMatchObject({
      payerName: "ROBA DINKA",
      payerAccount: "1000****4411",
      receiverAccount: "1000****9900",
      status: "completed",
    });
  });

  it("a value of the wrong shape is dropped, never passed on", () => {
    const text =
      "Siinqee Bank\nTransaction Reference FT26231LK3VB\nDebit Account Holder KEBEDE DEGEFA\nAmount ETB 500.00";
    const receipt = read("sinqee", text)?.receipt;
    expect(receipt?.payerAccount).toBeUndefined();
    expect(receipt?.payerName).toBe("KEBEDE DEGEFA");
  });
});

describe("5. a printed reference of a shape no lookup takes is still the receipt's reference", () => {
  it("is returned as printed; POST /verify explains it (test/api/receipts.test.ts)", () => {
    expect(
      read(
        "dashen",
        "Dashen Bank: Account ending in 1234 credited with ETB 50.00. Ref: DSH2026A77. Balance ETB 90.00.",
      ),
    ).toMatchObject({
      transactionNumber: "DSH2026A77",
      receipt: { amount: 50 },
    });
  });
});

describe("6. detection by the issuer, not by the other side", () => {
  it("a bank in brackets after a name is that side's bank", () => {
    const text =
      "Dear SARA, your account 1011******2211 was credited with ETB 700.00 from DAWIT LEMMA (Awash Bank) on 10-Oct-2026. Receipt https://share.zemenbank.com/rt/31907725101IPSR2628304MB/pdf";
    expect(detectBank(text)).toEqual({ kind: "detected", bank: "zemen" });
  });

  it("a 15-digit Transaction ID labelled as such is Awash's", () => {
    expect(detectBank("Transaction Successful\n900.00 ETB\nTransaction ID\n261001101022031")).toEqual({
      kind: "detected",
      bank: "awash",
    });
  });
});

describe("a text without a reference still says what it says", () => {
  it("reads the amount and both sides of a page that prints no reference; there is no claim to verify", () => {
    const text =
      "telebirr receipt\nPayer Name\nAbebe Bekele\nPayer telebirr no\n0912345678\nCredited Party name\nSara Tadesse\nCredited party account no\n0987654321\n500.00 Birr\n15-06-2026 14:30:00";
    const reading = RECEIPT_PARSERS.telebirr.read(text);
    expect(reading.transactionNumber).toBeNull();
    expect(reading.receipt).toMatchObject({
      amount: 500,
      currency: "ETB",
      payerName: "Abebe Bekele",
      receiverName: "Sara Tadesse",
    });
    expect(read("telebirr", text)).toBeNull();
  });

  it("reads a glued label of a fragment, and states no amount it does not print", () => {
    const reading = RECEIPT_PARSERS.cbe.read("Commercial Bank of Ethiopia\nPayerJohn Doe");
    expect(reading).toMatchObject({ transactionNumber: null, receipt: { payerName: "John Doe" } });
    expect(reading.receipt.amount).toBeUndefined();
  });
});

describe("telebirr: who was paid", () => {
  const page = (credited: string, bankAccount: string) =>
    `telebirr receipt\nPayer Name\tMOHAMMED A RESHID\nCredited Party name\t${credited}\nBank account number\t${bankAccount}\ntransaction status\tCompleted\nInvoice No.\tCHQ0FJ403O\nPayment date\t12-06-2026 13:45:10\nSettled Amount\t1,500.00 Birr`;

  it("is the credited party when the page names one beside the bank account's holder", () => {
    const claim = read("telebirr", page("SAMI ADIL ZEKARIA", "1000370251685   Mr Sami Adil"));
    expect(claim?.receipt).toMatchObject({
      receiverName: "SAMI ADIL ZEKARIA",
      receiverAccount: "1000370251685",
    });
  });

  it("is the bank account's holder when the credited party is the bank", () => {
    const claim = read("telebirr", page("Commercial Bank of Ethiopia", "1000370251685 HANA TESFAYE"));
    expect(claim?.receipt).toMatchObject({ receiverName: "HANA TESFAYE", receiverAccount: "1000370251685" });
  });

  it("reads the invoice number of a Select All row glued to its date and amount, as printed", () => {
    const claim = read(
      "telebirr",
      "telebirr receipt\nPayer NameMOHAMMED A RESHID\nInvoice details\nInvoice No.\nSettled AmountCHQ261Z4ABC18-09-2026 14:22:102450.00 Birr",
    );
    expect(claim).toMatchObject({ transactionNumber: "CHQ261Z4ABC", receipt: { amount: 2450 } });
  });
});

describe("M-Pesa by its Safaricom number", () => {
  it("a screen that names no provider, with a reference other wallets share and a 2517… number, is M-Pesa's", () => {
    const text =
      "Transaction successful\nYou sent\nBirr 1,075.00\nto SENAIT WOLDU\n251712***330\nTransaction ID: UJ2T9K5VHM\nDate: 07 Oct 2026, 08:30 AM";
    expect(detectBank(text)).toEqual({ kind: "detected", bank: "mpesa" });
    expect(detectBank(text.replace("251712***330", "251912***330")).kind).toBe("ambiguous");
  });
});
