// Black-box check of the real API against an outsider's Zemen imitation (docs/banks.md §2.6),
// held to the answers of docs/api.md §4.1–4.2.
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { expectNotFound } from "./expectations.js";
import { useImitation } from "./harness.js";
import { expiredZemenToken, startZemenImitation, zemenTransactions } from "./zemen.js";

const [first, second, third] = zemenTransactions as [
  (typeof zemenTransactions)[0],
  (typeof zemenTransactions)[0],
  (typeof zemenTransactions)[0],
];
const link = (token: string) => `https://share.zemenbank.com/rt/${token}/pdf`;

describe("Zemen imitation through the API", () => {
  const imitation = useImitation(startZemenImitation);
  let key: string;
  beforeAll(async () => {
    key = (await createTenant(imitation.api.db, { quota: 100 })).key;
  });

  const verify = async (json: Record<string, unknown>) => (await imitation.verify(json, key)).response;

  it("parse-url reads the share link without asking the bank", async () => {
    const before = imitation.bank.hits.length;
    const res = await imitation.api.request("POST", "/verify/parse-url", {
      key,
      json: { receipt_url: link(first.token) },
    });
    expect(res.status).toBe(200);
    expect(res.body.bank).toBe("zemen");
    expect(typeof res.body.bank_name).toBe("string");
    expect(typeof res.body.transaction_number).toBe("string");
    expect([first.token, first.reference]).toContain(res.body.transaction_number);
    expect(res.body.source_url).toBe(link(first.token));
    expect(typeof res.body.requires_account_number).toBe("boolean");
    expect(res.body.requires_account_number).toBe(false);
    expect(typeof res.body.requires_explicit_settlement_account).toBe("boolean");
    expect(imitation.bank.hits.length).toBe(before);
  });

  it("confirms a share link with the settled amount, not the total paid", async () => {
    const res = await verify({ receipt_url: link(first.token) });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.exists).toBe(true);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.message).toBeNull();
    expect(res.body.data.bank).toBe("zemen");
    expect(res.body.data.source_url).toBe(link(first.token));
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(1500);
    expect(receipt.currency).toBe("ETB");
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-09-04T15:12:45+03:00"));
    expect(receipt.transaction_date).toMatch(/(\+03:00|Z)$/);
    expect(receipt.payer_name).toBe(first.payerName);
    expect(receipt.receiver_name).toBe(first.recipientName);
    expect(String(receipt.receiver_account)).toContain("3015");
  });

  it("calls the same receipt a duplicate when it comes back by token", async () => {
    const res = await verify({ bank: "zemen", transaction_number: first.token });
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(true);
    expect(res.body.success).toBe(false);
    expect(Number.isInteger(res.body.existing_verification_id)).toBe(true);
    expect(typeof res.body.verified_at).toBe("string");
  });

  it("confirms bank + token: date-only receipt, status Successful, five-figure amount", async () => {
    const res = await verify({ bank: "zemen", transaction_number: second.token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(25000);
    // Only the day is printed: it must still be 18 Sep 2026 in Addis Ababa.
    const addis = new Date(Date.parse(receipt.transaction_date) + 3 * 3600_000).toISOString();
    expect(addis.slice(0, 10)).toBe("2026-09-18");
    expect(receipt.payer_name).toBe(second.payerName);
  });

  it("calls a link a duplicate after the token was verified", async () => {
    const res = await verify({ receipt_url: link(second.token) });
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(true);
  });

  it("never confirms a receipt paid to another account than the one named (one-run label+value PDF)", async () => {
    const res = await verify({ receipt_url: link(third.token), account_number: "1021410099990000" });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    // Found at the bank, paid elsewhere: exists stays true.
    expect(res.body.exists).toBe(true);
    const right = await verify({ receipt_url: link(third.token), account_number: third.recipientAccount });
    expect(right.status).toBe(200);
    expect(right.body.success).toBe(true);
    expect(right.body.data.receipt.amount).toBe(760);
  });

  it("answers 404 for an unknown or expired token (bank's 404 JSON)", async () => {
    const unknown = "11112222333ATWR2626400AA";
    for (const json of [
      { receipt_url: link(unknown) },
      { bank: "zemen", transaction_number: unknown },
      { receipt_url: link(expiredZemenToken) },
    ]) {
      const res = await verify(json);
      expectNotFound(res);
    }
  });
});
