// The real API as a black box against an outsider's CBE imitation (docs/banks.md §2.1, docs/api.md §4.1–4.2).
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { startCbe } from "./cbe.js";
import { expectNotFound, sameInstant } from "./expectations.js";
import { useImitation } from "./harness.js";

const imitation = useImitation(startCbe);
const { verify } = imitation;

describe("CBE mobile-receipt tokens (mbreciept links)", () => {
  it("confirms a v2 share link, then catches the same transfer by FT + receiving account", async () => {
    const { key, response } = await verify({
      receipt_url: "https://mbreciept.cbe.com.et/v2-Qm7RtZkLpXa9BwYc4Hdq",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.duplicate).toBe(false);
    const receipt = response.body.data.receipt;
    expect(response.body.data.bank).toBe("cbe");
    expect(receipt.amount).toBe(1300);
    expect(receipt.currency).toBe("ETB");
    sameInstant(receipt.transaction_date, "2026-05-29T08:30:00Z");
    expect(receipt.payer_name).toBe("ABEBE KEBEDE TADESSE");
    expect(receipt.receiver_name).toBe("SELAM TRADING PLC");

    const again = await verify(
      { bank: "cbe", transaction_number: "FT2614977L8S", account_number: "1000456781685" },
      key,
    );
    expect(again.response.status).toBe(200);
    expect(again.response.body.success).toBe(false);
    expect(again.response.body.duplicate).toBe(true);
    expect(again.response.body.existing_verification_id).toEqual(expect.any(Number));
  });

  it("confirms an older bare token given as transaction_number (after the bank's transient 400), then the link is a duplicate", async () => {
    const { key, response } = await verify({ bank: "cbe", transaction_number: "fHCxyV4mg5pRIwEkJO" });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(2000);
    sameInstant(response.body.data.receipt.transaction_date, "2026-06-19T13:45:00Z");
    expect(response.body.data.receipt.payer_name).toBe("HANA GETACHEW");
    expect(response.body.data.receipt.receiver_name).toBe("DAWIT MENGISTU");

    const again = await verify({ receipt_url: "https://mbreciept.cbe.com.et/fHCxyV4mg5pRIwEkJO" }, key);
    expect(again.response.status).toBe(200);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("takes amountCredited as the amount when amountDebited includes fees", async () => {
    const { response } = await verify({
      receipt_url: "https://mbreciept.cbe.com.et/v2-Lp4sWq8NeRt2YuZk6Mbx",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(500);
    sameInstant(response.body.data.receipt.transaction_date, "2026-07-07T06:12:44Z");
  });

  it("with a share link and a wrong receiving account, never confirms", async () => {
    const { response } = await verify({
      receipt_url: "https://mbreciept.cbe.com.et/v2-Qm7RtZkLpXa9BwYc4Hdq",
      account_number: "1000999999999",
    });
    expect(response.body.success).toBe(false);
  });

  it("with a share link and the right receiving account (full, or its last 4–6 digits), confirms", async () => {
    for (const account of ["1000456781685", "1685", "781685"]) {
      const { response } = await verify({
        receipt_url: "https://mbreciept.cbe.com.et/v2-Qm7RtZkLpXa9BwYc4Hdq",
        account_number: account,
      });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
    }
  });

  it("with a share link and the last 8 digits of the receiving account, confirms", async () => {
    const { response } = await verify({
      receipt_url: "https://mbreciept.cbe.com.et/v2-Qm7RtZkLpXa9BwYc4Hdq",
      account_number: "56781685",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
  });

  it("keeps the token's case: the uppercased token is not the same receipt", async () => {
    const { response } = await verify({
      receipt_url: "https://mbreciept.cbe.com.et/v2-QM7RTZKLPXA9BWYC4HDQ",
    });
    expect(response.body.success).toBe(false);
  });

  it("answers 404 for a token the bank calls tampered (HTTP 500 Security Alert)", async () => {
    const { response } = await verify({
      receipt_url: "https://mbreciept.cbe.com.et/v2-ZZZZzzzz1111yyyyXXXX",
    });
    expectNotFound(response);
  });

  it("asked the mobile JSON API, which refuses lookups without X-App-ID / X-App-Version (run with the file)", () => {
    // Any successful mobile lookup above proves it; this checks the API really asked the JSON API.
    expect(
      imitation.bank.requests.some((r) => r.startsWith("/api/v1/transactions/public/transaction-detail/")),
    ).toBe(true);
  });

  it("parse-url reads a v2 link as a CBE token link", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    const response = await imitation.api.request("POST", "/verify/parse-url", {
      key,
      json: { receipt_url: "https://mbreciept.cbe.com.et/v2-Qm7RtZkLpXa9BwYc4Hdq" },
    });
    expect(response.status).toBe(200);
    expect(response.body.bank).toBe("cbe");
    expect(response.body.receipt_token).toBe("v2-Qm7RtZkLpXa9BwYc4Hdq");
    expect(response.body.requires_account_number).toBe(false);
  });
});

describe("CBE legacy PDF receipts (FT + last 8 digits of the receiving account)", () => {
  it("confirms FT + full receiving account, then the legacy link is a duplicate", async () => {
    const { key, response } = await verify({
      bank: "cbe",
      transaction_number: "FT26140P01YB",
      account_number: "1000360536171",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(response.body.data.transaction_number).toBe("FT26140P01YB");
    expect(receipt.amount).toBe(20000);
    expect(receipt.currency).toBe("ETB");
    sameInstant(receipt.transaction_date, "2026-05-20T19:29:00+03:00");
    expect(receipt.payer_name).toBe("MEKDES ALEMU BEKELE");
    expect(receipt.receiver_name).toBe("HABTAMU GIRMA WOLDE");

    const again = await verify({ receipt_url: "https://apps.cbe.com.et:100/?id=FT26140P01YB60536171" }, key);
    expect(again.response.status).toBe(200);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms FT + only the last 8 digits of the receiving account", async () => {
    const { response } = await verify({
      bank: "cbe",
      transaction_number: "FT26140P01YB",
      account_number: "60536171",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(20000);
  });

  it("confirms a legacy ?id= link on its own", async () => {
    const { response } = await verify({
      receipt_url: "https://apps.cbe.com.et:100/?id=FT26140P01YB60536171",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(20000);
  });

  it("confirms a branch-counter /BranchReceipt/ link", async () => {
    const { response } = await verify({
      receipt_url: "https://apps.cbe.com.et:100/BranchReceipt/FT26201K3QZX&40213377",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(7450);
    sameInstant(receipt.transaction_date, "2026-07-20T09:05:12+03:00");
    expect(receipt.payer_name).toBe("TSEHAY ASSEFA");
    expect(receipt.receiver_name).toBe("ABYSSINIA COFFEE EXPORT");
  });

  it("confirms a branch-counter receipt by FT + account (the API falls back to /BranchReceipt/)", async () => {
    const { response } = await verify({
      bank: "cbe",
      transaction_number: "FT26201K3QZX",
      account_number: "1000440213377",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(7450);
  });

  it("never confirms a wrong receiving account", async () => {
    const { response } = await verify({
      bank: "cbe",
      transaction_number: "FT26140P01YB",
      account_number: "1000399999999",
    });
    expect(response.body.success).toBe(false);
    expect(response.status).toBe(404);
    expect(response.body.exists).toBe(false);
  });

  it("never confirms with the payer's account suffix", async () => {
    const { response } = await verify({
      bank: "cbe",
      transaction_number: "FT26140P01YB",
      account_number: "1000212343928",
    });
    expect(response.body.success).toBe(false);
  });

  it("answers 404 for an unknown FT (the bank's 404 'You Are Not Allowed to See This Data')", async () => {
    const { response } = await verify({
      bank: "cbe",
      transaction_number: "FT26199ABCDE",
      account_number: "1000360536171",
    });
    expect(response.status).toBe(404);
    expect(response.body.success).toBe(false);
    expect(response.body.exists).toBe(false);
    expect(response.body.data.receipt).toEqual({});
  });

  it("refuses an FT reference without an account (422, required for cbe)", async () => {
    const { response } = await verify({ bank: "cbe", transaction_number: "FT26140P01YB" });
    expect(response.status).toBe(422);
  });

  it("parse-url splits a legacy ?id= link into FT and account suffix", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    const response = await imitation.api.request("POST", "/verify/parse-url", {
      key,
      json: { receipt_url: "https://apps.cbe.com.et:100/?id=FT26140P01YB60536171" },
    });
    expect(response.status).toBe(200);
    expect(response.body.bank).toBe("cbe");
    expect(response.body.transaction_number).toBe("FT26140P01YB");
    expect(response.body.account_number).toBe("60536171");
    expect(response.body.requires_account_number).toBe(false);
  });

  it("parse-url reads a /BranchReceipt/ link", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    const response = await imitation.api.request("POST", "/verify/parse-url", {
      key,
      json: { receipt_url: "https://apps.cbe.com.et:100/BranchReceipt/FT26201K3QZX&40213377" },
    });
    expect(response.status).toBe(200);
    expect(response.body.bank).toBe("cbe");
    expect(response.body.transaction_number).toBe("FT26201K3QZX");
    expect(response.body.account_number).toBe("40213377");
  });
});
