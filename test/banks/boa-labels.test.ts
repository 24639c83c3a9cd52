import { describe, expect, it } from "vitest";
import { parseBoaResponse } from "../../src/banks/boa/adapter.js";
import { atLineStart, DISTINCTIVE, FIELDS, WHOLE_KEY } from "../../src/banks/boa/labels.js";
import { boaReceiptParser } from "../../src/banks/boa/receipt.js";

// One label, one pattern (docs/banks.md §2.5): the slip API's JSON key and the printed slip or app label.
describe("BOA labels, written once for the adapter and the receipt reader", () => {
  it("matches the slip API's keys whole and the printed labels at a line's start", () => {
    const keys: [keyof typeof WHOLE_KEY, string][] = [
      ["payerName", "payer's name"],
      ["payerAccount", "payer's account"],
      ["sourceAccountName", "source account name"],
      ["sourceAccount", "source account"],
      ["receiverName", "receiver's name"],
      ["receiverName", "receiver name"],
      ["receiverAccount", "receiver's account"],
      ["beneficiaryName", "beneficiary name"],
      ["beneficiaryAccount", "beneficiary account"],
      ["transferredAmount", "transferred amount"],
      ["transactionDate", "transaction date"],
      ["transactionReference", "transaction reference"],
      ["transactionType", "transaction type"],
      ["narrative", "narrative"],
      ["currency", "currency"],
    ];
    for (const [label, key] of keys) expect(WHOLE_KEY[label].test(key), key).toBe(true);
    expect(WHOLE_KEY.sourceAccount.test("source account name")).toBe(false);
    expect(WHOLE_KEY.transferredAmount.test("transferred amount in word")).toBe(false);
    expect(atLineStart(FIELDS.receiverName).test("Receiver Nae: MARTHA")).toBe(true);
    expect(atLineStart(FIELDS.payerName).test("Source Account Name ABEBE")).toBe(true);
  });

  it("counts only the API's possessive and its own totals as BOA's", () => {
    expect(DISTINCTIVE.test("Receiver's Name MARTHA")).toBe(true);
    expect(DISTINCTIVE.test("Payer’s Account 1******23")).toBe(true);
    expect(DISTINCTIVE.test("Total Amount including VAT 1,110.00")).toBe(true);
    expect(DISTINCTIVE.test("Receiver Name MARTHA")).toBe(false);
    expect(DISTINCTIVE.test("Payer Name ABEBE")).toBe(false);
  });

  it("reads the app receipt's Receiver Name and Note in the API answer too", async () => {
    const body = {
      header: { status: "success" },
      body: [
        {
          "Source Account Name": "ABEBE KEBEDE",
          "Receiver Name": "MARTHA GIRMA",
          Amount: "250.00",
          "Transaction Date": "19/07/2025, 17:32:13",
          "Transaction Reference": "FT25200ABCDE",
          Note: "rent",
        },
      ],
    };
    const outcome = await parseBoaResponse(
      { status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)) },
      { transactionNumber: "FT25200ABCDE", account: "12345", token: null },
    );
    expect(outcome).toMatchObject({
      kind: "found",
      receipt: { payerName: "ABEBE KEBEDE", receiverName: "MARTHA GIRMA", amount: 250, description: "rent" },
    });
    // The reader takes the same labels from a copy of the app receipt.
    const text =
      "Source Account Name: ABEBE KEBEDE\nReceiver Name: MARTHA GIRMA\nAmount: 250.00 ETB\nNote: rent";
    expect(boaReceiptParser.parse(text).receipt).toMatchObject({
      payerName: "ABEBE KEBEDE",
      receiverName: "MARTHA GIRMA",
      amount: 250,
      description: "rent",
    });
  });
});
