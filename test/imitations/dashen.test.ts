// The real API as a black box against an outsider's Dashen imitation (docs/banks.md §2.3),
// held to the answers of docs/api.md §4.1–4.2.
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { startDashen } from "./dashen.js";
import { expectNotFound, sameInstant } from "./expectations.js";
import { useImitation } from "./harness.js";

const imitation = useImitation(startDashen);
const { verify } = imitation;

describe("dashen", () => {
  it("confirms an FT Ref, then the current share link is a duplicate", async () => {
    const { key, response } = await verify({ bank: "dashen", transaction_number: "B22WDTI261620001" });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.duplicate).toBe(false);
    expect(response.body.data.bank).toBe("dashen");
    expect(response.body.data.transaction_number).toBe("B22WDTI261620001");
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(20475);
    expect(receipt.currency).toBe("ETB");
    sameInstant(receipt.transaction_date, "2026-06-11T08:45:50+03:00");
    expect(receipt.payer_name).toBe("MARTHA GIRMA ALEMU");
    expect(receipt.receiver_name).toBe("ETHIO FRESH FOODS PLC");

    const again = await verify(
      { receipt_url: "https://receipts.dashenbanksc.com/receipt/B22WDTI261620001" },
      key,
    );
    expect(again.response.status).toBe(200);
    expect(again.response.body.success).toBe(false);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms a current share link with a pm time and fees (amount = Transaction Amount, not Total)", async () => {
    const { response } = await verify({
      receipt_url: "https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(1500);
    sameInstant(receipt.transaction_date, "2026-08-14T15:12:09+03:00");
    expect(receipt.payer_name).toBe("TIGIST WORKU");
    expect(receipt.receiver_name).toBe("BEREKET ALEMAYEHU");
  });

  it("re-routes an old receipt.dashensuperapp.com link to the current host", async () => {
    const { key, response } = await verify({
      receipt_url: "https://receipt.dashensuperapp.com/receipt/110IPSS2616900WO",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(100);
    sameInstant(response.body.data.receipt.transaction_date, "2026-06-18T10:23:00+03:00");
    expect(response.body.data.receipt.receiver_name).toBe("HIRUT KASSA");

    const again = await verify({ bank: "dashen", transaction_number: "110IPSS2616900WO" }, key);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("re-routes an old api.dashensuperapp.com PDF link to the current host", async () => {
    const { response } = await verify({
      receipt_url: "https://api.dashensuperapp.com/receipts/Within-Dashen-Transfer-B22WDTI261620001.pdf",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(20475);
    expect(imitation.bank.oldHostHits).toEqual([]);
  });

  it("checks a receiving account given with the reference against the masked Receiver Account Number", async () => {
    const right = await verify({
      bank: "dashen",
      transaction_number: "B22WDTI261620001",
      account_number: "5031234567427",
    });
    expect(right.response.status).toBe(200);
    expect(right.response.body.success).toBe(true);
    const wrong = await verify({
      bank: "dashen",
      transaction_number: "B22WDTI261620001",
      account_number: "5031234567999",
    });
    expect(wrong.response.body.success).toBe(false);
    const suffix = await verify({
      bank: "dashen",
      transaction_number: "B22WDTI261620001",
      account_number: "34567427",
    });
    expect(suffix.response.status).toBe(200);
    expect(suffix.response.body.success).toBe(true);
  });

  it("answers 404 for the bank's 400 'Transaction not found'", async () => {
    const { response } = await verify({ bank: "dashen", transaction_number: "045WDTS2514600WM" });
    expectNotFound(response);
  });

  it("never confirms the long Transfer Reference", async () => {
    const { response } = await verify({ bank: "dashen", transaction_number: "WDTI5921680061225851717" });
    expect(response.body.success).not.toBe(true);
    expect([404, 422]).toContain(response.status);
  });

  it("parse-url reads the current and both old link forms", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    for (const url of [
      "https://receipts.dashenbanksc.com/receipt/B22WDTI261620001",
      "https://receipt.dashensuperapp.com/receipt/B22WDTI261620001",
      "https://api.dashensuperapp.com/receipts/Within-Dashen-Transfer-B22WDTI261620001.pdf",
    ]) {
      const response = await imitation.api.request("POST", "/verify/parse-url", {
        key,
        json: { receipt_url: url },
      });
      expect(response.status).toBe(200);
      expect(response.body.bank).toBe("dashen");
      expect(response.body.transaction_number).toBe("B22WDTI261620001");
      expect(response.body.requires_account_number).toBe(false);
    }
  });
});
