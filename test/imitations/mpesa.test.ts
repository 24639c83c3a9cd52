// Black-box check of the real API against an outsider's M-Pesa imitation (docs/banks.md §2.8),
// held to the answers of docs/api.md §4.1–4.2.
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { expectNotFound } from "./expectations.js";
import { useImitation } from "./harness.js";
import { type MpesaTransaction, mpesaTransactions, startMpesaImitation } from "./mpesa.js";

const [first, second, third] = mpesaTransactions as [MpesaTransaction, MpesaTransaction, MpesaTransaction];
const shareLink = (id: string) => `https://m-pesabusiness.safaricom.et/receipt/${id}`;
const apiLink = (id: string) => `https://m-pesabusiness.safaricom.et/api/receipt/getReceipt?trxNo=${id}`;

describe("M-Pesa imitation through the API", () => {
  const imitation = useImitation(startMpesaImitation);
  let key: string;
  beforeAll(async () => {
    key = (await createTenant(imitation.api.db, { quota: 100 })).key;
  });

  const verify = async (json: Record<string, unknown>) => (await imitation.verify(json, key)).response;

  it.each([
    ["SMS share link", shareLink(first.id)],
    ["data API link", apiLink(first.id)],
  ])("parse-url reads the %s", async (_form, url) => {
    const before = imitation.bank.hits.length;
    const res = await imitation.api.request("POST", "/verify/parse-url", { key, json: { receipt_url: url } });
    expect(res.status).toBe(200);
    expect(res.body.bank).toBe("mpesa");
    expect(typeof res.body.bank_name).toBe("string");
    expect(res.body.transaction_number).toBe(first.id);
    expect(res.body.source_url).toBe(url);
    expect(res.body.requires_account_number).toBe(false);
    expect(imitation.bank.hits.length).toBe(before);
  });

  it("confirms the SMS share link from the base64 PDF, amount without fees", async () => {
    const res = await verify({ receipt_url: shareLink(first.id) });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.exists).toBe(true);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.data.bank).toBe("mpesa");
    expect(res.body.data.transaction_number).toBe(first.id);
    const receipt = res.body.data.receipt;
    // TOTAL 1,255.75 = 1,250.00 sent + 5.00 fee + 0.75 VAT.
    expect(receipt.amount).toBe(1250);
    expect(receipt.currency).toBe("ETB");
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-07-24T11:53:57+03:00"));
    expect(receipt.transaction_date).toMatch(/(\+03:00|Z)$/);
    expect(receipt.payer_name).toBe("MERON GIRMA");
    expect(receipt.receiver_name).toBe("DAWIT LEMMA");
    expect(imitation.bank.hits).toContain(`/api/receipt/getReceipt?trxNo=${first.id}`);
  });

  it("calls it a duplicate when it comes back by transaction number", async () => {
    const res = await verify({ bank: "mpesa", transaction_number: first.id });
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(true);
    expect(res.body.success).toBe(false);
    expect(Number.isInteger(res.body.existing_verification_id)).toBe(true);
    expect(typeof res.body.verified_at).toBe("string");
  });

  it("confirms bank + transaction number (merchant payment, date without EAT)", async () => {
    const res = await verify({ bank: "mpesa", transaction_number: second.id });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(2400);
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-08-02T19:04:11+03:00"));
    expect(receipt.payer_name).toBe("SOLOMON ABERA");
    expect(receipt.receiver_name).toBe("BOLE FRESH MARKET");
    const again = await verify({ receipt_url: apiLink(second.id) });
    expect(again.body.duplicate).toBe(true);
  });

  it("never confirms a transfer to another number than the one named", async () => {
    const wrong = await verify({
      bank: "mpesa",
      transaction_number: third.id,
      account_number: "251700000001",
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body.success).toBe(false);
    // Found at the bank, paid elsewhere: exists stays true.
    expect(wrong.body.exists).toBe(true);
    const right = await verify({
      bank: "mpesa",
      transaction_number: third.id,
      account_number: "251700987654",
    });
    expect(right.status).toBe(200);
    expect(right.body.success).toBe(true);
    expect(right.body.data.receipt.amount).toBe(200);
  });

  it("answers 404 when responseCode is not 0", async () => {
    const unknown = "UZZZ000000";
    for (const json of [
      { bank: "mpesa", transaction_number: unknown },
      { receipt_url: shareLink(unknown) },
    ]) {
      const res = await verify(json);
      expectNotFound(res);
    }
  });
});
