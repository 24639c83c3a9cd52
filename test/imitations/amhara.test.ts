// Black-box check of the real API against an outsider's Amhara Bank imitation (docs/banks.md §2.10),
// held to the answers of docs/api.md §4.1–4.2.
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { type AmharaTransaction, amharaTransactions, startAmharaImitation } from "./amhara.js";
import { expectNotFound } from "./expectations.js";
import { useImitation } from "./harness.js";

const [first, second, third] = amharaTransactions as [
  AmharaTransaction,
  AmharaTransaction,
  AmharaTransaction,
];
const shareLink = (ref: string) => `https://receipt.amharabank.com.et/?trx=${ref}`;
const apiLink = (ref: string) => `https://transaction.amharabank.com.et/${ref}`;

describe("Amhara imitation through the API", () => {
  const imitation = useImitation(startAmharaImitation);
  let key: string;
  beforeAll(async () => {
    key = (await createTenant(imitation.api.db, { quota: 100 })).key;
  });

  const verify = async (json: Record<string, unknown>) => (await imitation.verify(json, key)).response;

  it.each([
    ["share link", shareLink(first.reference)],
    ["API-style link", apiLink(first.reference)],
  ])("parse-url reads the %s", async (_form, url) => {
    const before = imitation.bank.hits.length;
    const res = await imitation.api.request("POST", "/verify/parse-url", { key, json: { receipt_url: url } });
    expect(res.status).toBe(200);
    expect(res.body.bank).toBe("amhara");
    expect(typeof res.body.bank_name).toBe("string");
    expect(res.body.transaction_number).toBe(first.reference);
    expect(res.body.source_url).toBe(url);
    expect(res.body.requires_account_number).toBe(false);
    expect(imitation.bank.hits.length).toBe(before);
  });

  it("confirms the share link from the JSON API (sendor…/reveiver… keys, status MAT)", async () => {
    const res = await verify({ receipt_url: shareLink(first.reference) });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.exists).toBe(true);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.data.bank).toBe("amhara");
    expect(res.body.data.transaction_number).toBe(first.reference);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(3250);
    expect(receipt.currency).toBe("ETB");
    // dateTime 2609060908 = yyMMddHHmm, Addis Ababa time.
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-09-06T09:08:00+03:00"));
    expect(receipt.transaction_date).toMatch(/(\+03:00|Z)$/);
    expect(receipt.payer_name).toBe("TIGIST ASSEFA WOLDE");
    expect(receipt.receiver_name).toBe("ABAY COFFEE EXPORT PLC");
    expect(String(receipt.receiver_account)).toContain("4321");
  });

  it("calls it a duplicate when the same transfer comes back by reference (any case) and by API link", async () => {
    for (const json of [
      { bank: "amhara", transaction_number: first.reference },
      { bank: "amhara", transaction_number: first.reference.toLowerCase() },
      { receipt_url: apiLink(first.reference) },
    ]) {
      const res = await verify(json);
      expect(res.status).toBe(200);
      expect(res.body.duplicate).toBe(true);
      expect(res.body.success).toBe(false);
      expect(Number.isInteger(res.body.existing_verification_id)).toBe(true);
      expect(typeof res.body.verified_at).toBe("string");
    }
  });

  it("confirms bank + reference with the other key spellings (debitor…/creditor…, totalAmount, Auth)", async () => {
    const res = await verify({ bank: "amhara", transaction_number: second.reference });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(12000);
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-09-09T17:45:00+03:00"));
    expect(receipt.payer_name).toBe("MULUGETA HAILE");
    expect(receipt.receiver_name).toBe("ABAY COFFEE EXPORT PLC");
  });

  it("never confirms a transfer to another account than the one named", async () => {
    const wrong = await verify({
      bank: "amhara",
      transaction_number: third.reference,
      account_number: "9900000000001",
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body.success).toBe(false);
    // Found at the bank, paid elsewhere: exists stays true.
    expect(wrong.body.exists).toBe(true);
    const right = await verify({
      bank: "amhara",
      transaction_number: third.reference,
      account_number: "9900087654321",
    });
    expect(right.status).toBe(200);
    expect(right.body.success).toBe(true);
    expect(right.body.data.receipt.amount).toBe(480.5);
    // 2609120002 = 12 Sep 2026 00:02 in Addis Ababa, i.e. still 11 Sep in UTC.
    expect(Date.parse(right.body.data.receipt.transaction_date)).toBe(Date.parse("2026-09-11T21:02:00Z"));
  });

  it("answers 404 for the bank's HTTP 500 {status:false} and asks the bank only once", async () => {
    const unknown = "FT26256ZZZZZ";
    for (const json of [
      { bank: "amhara", transaction_number: unknown },
      { receipt_url: shareLink(unknown) },
    ]) {
      const before = imitation.bank.hits.length;
      const res = await verify(json);
      expectNotFound(res);
      // docs/banks.md §2.10: a 500 {status:false} is not found, and not retried.
      expect(imitation.bank.hits.slice(before)).toEqual([`/${unknown}`]);
    }
  });
});
