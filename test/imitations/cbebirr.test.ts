// Black-box check of the real API against an outsider's CBE Birr imitation (docs/banks.md §2.7,
// docs/api.md §4.1–4.2: account_number is the payer's phone 251XXXXXXXXX).
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { type CbeBirrTransaction, cbeBirrTransactions, startCbeBirrImitation } from "./cbebirr.js";
import { expectNotFound } from "./expectations.js";
import { useImitation } from "./harness.js";

const [first, second, third] = cbeBirrTransactions as [
  CbeBirrTransaction,
  CbeBirrTransaction,
  CbeBirrTransaction,
];
const lookupLink = (t: CbeBirrTransaction) =>
  `https://cbepay1.cbe.com.et/aureceipt?TID=${t.receiptNumber}&PH=${t.payerPhone}`;

describe("CBE Birr imitation through the API", () => {
  const imitation = useImitation(startCbeBirrImitation);
  let key: string;
  beforeAll(async () => {
    key = (await createTenant(imitation.api.db, { quota: 100 })).key;
  });

  const verify = async (json: Record<string, unknown>) => (await imitation.verify(json, key)).response;

  it("confirms receipt number + payer phone, amount without fees, from a PDF with a glued table row", async () => {
    const res = await verify({
      bank: "cbebirr",
      transaction_number: first.receiptNumber,
      account_number: first.payerPhone,
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.exists).toBe(true);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.message).toBeNull();
    expect(res.body.data.bank).toBe("cbebirr");
    expect(res.body.data.transaction_number).toBe(first.receiptNumber);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(1500);
    expect(receipt.currency).toBe("ETB");
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-09-25T16:39:00+03:00"));
    expect(receipt.transaction_date).toMatch(/(\+03:00|Z)$/);
    expect(receipt.payer_name).toBe(first.payerName);
    expect(receipt.receiver_name).toBe(first.receiverName);
    expect(imitation.bank.hits).toContain(`/aureceipt?TID=${first.receiptNumber}&PH=${first.payerPhone}`);
  });

  it("calls the same receipt a duplicate the second time", async () => {
    const res = await verify({
      bank: "cbebirr",
      transaction_number: first.receiptNumber,
      account_number: first.payerPhone,
    });
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(true);
    expect(res.body.success).toBe(false);
    expect(Number.isInteger(res.body.existing_verification_id)).toBe(true);
    expect(typeof res.body.verified_at).toBe("string");
  });

  it("accepts the local 09… phone form, receipt served as a Telerik HTML report page", async () => {
    const res = await verify({
      bank: "cbebirr",
      transaction_number: second.receiptNumber,
      account_number: `0${second.payerPhone.slice(3)}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.receipt.amount).toBe(20);
    expect(Date.parse(res.body.data.receipt.transaction_date)).toBe(Date.parse("2026-09-27T09:05:00+03:00"));
    expect(imitation.bank.hits).toContain(`/aureceipt?TID=${second.receiptNumber}&PH=${second.payerPhone}`);
  });

  it("never confirms with another phone (the bank's empty Auto Receipt page) and answers 404", async () => {
    const receiverPhone = "251976765611";
    const res = await verify({
      bank: "cbebirr",
      transaction_number: third.receiptNumber,
      account_number: receiverPhone,
    });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.exists).toBe(false);
    expect(res.body.data.receipt).toEqual({});
    const right = await verify({
      bank: "cbebirr",
      transaction_number: third.receiptNumber,
      account_number: third.payerPhone,
    });
    expect(right.status).toBe(200);
    expect(right.body.success).toBe(true);
    expect(right.body.data.receipt.amount).toBe(12500);
  });

  it("calls the lookup link, and the +251 phone form, a duplicate after the receipt number was verified", async () => {
    for (const json of [
      { receipt_url: lookupLink(first) },
      { bank: "cbebirr", transaction_number: first.receiptNumber, account_number: `+${first.payerPhone}` },
    ]) {
      const res = await verify(json);
      expect(res.status).toBe(200);
      expect(res.body.duplicate).toBe(true);
    }
  });

  it("answers 404 for an unknown receipt number (HTTP 200 empty Telerik shell)", async () => {
    const res = await verify({
      bank: "cbebirr",
      transaction_number: "CGU0000000",
      account_number: "251911234567",
    });
    expectNotFound(res);
  });

  it("does not confirm without the payer phone", async () => {
    const res = await verify({ bank: "cbebirr", transaction_number: "CGU5ABCDEF" });
    expect(res.body.success).not.toBe(true);
    expect(res.status).toBe(422);
  });

  it("parse-url reads the aureceipt lookup link with its phone", async () => {
    const url = lookupLink(first);
    const res = await imitation.api.request("POST", "/verify/parse-url", { key, json: { receipt_url: url } });
    expect(res.status).toBe(200);
    expect(res.body.bank).toBe("cbebirr");
    expect(res.body.transaction_number).toBe(first.receiptNumber);
    expect(res.body.account_number).toBe(first.payerPhone);
    expect(res.body.requires_account_number).toBe(false);
  });
});
