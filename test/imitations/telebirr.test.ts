// The real API as a black box against an outsider's telebirr imitation (docs/banks.md §2.2),
// held to the answers of docs/api.md §4.1–4.2.
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { sameInstant } from "./expectations.js";
import { useImitation } from "./harness.js";
import { startTelebirr } from "./telebirr.js";

const imitation = useImitation(startTelebirr);
const { verify } = imitation;

describe("telebirr", () => {
  it("confirms a reference (settled amount, not total paid), then the share link is a duplicate", async () => {
    const { key, response } = await verify({ bank: "telebirr", transaction_number: "DFH51OFIED" });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.exists).toBe(true);
    expect(response.body.duplicate).toBe(false);
    expect(response.body.message).toBeNull();
    expect(response.body.data.bank).toBe("telebirr");
    expect(response.body.data.transaction_number).toBe("DFH51OFIED");
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(60);
    expect(receipt.currency).toBe("ETB");
    sameInstant(receipt.transaction_date, "2026-06-17T18:14:15+03:00");
    expect(receipt.payer_name).toBe("ABEBECH TESFAYE GEBRE");
    expect(receipt.receiver_name).toBe("YONAS BIRHANU");

    const again = await verify(
      { receipt_url: "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED" },
      key,
    );
    expect(again.response.status).toBe(200);
    expect(again.response.body.success).toBe(false);
    expect(again.response.body.duplicate).toBe(true);
    expect(again.response.body.existing_verification_id).toEqual(expect.any(Number));
    expect(typeof again.response.body.verified_at).toBe("string");
  });

  it("confirms a share link to a bank transfer with an amount without decimals", async () => {
    const { key, response } = await verify({
      receipt_url: "https://transactioninfo.ethiotelecom.et/receipt/DGS2BT1W54",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(2500);
    sameInstant(receipt.transaction_date, "2026-07-02T09:03:41+03:00");
    expect(receipt.payer_name).toBe("KIDIST HAILE");
    expect(receipt.receiver_name).toBe("MEKONNEN ASFAW");
    expect(response.body.data.source_url).toBe("https://transactioninfo.ethiotelecom.et/receipt/DGS2BT1W54");

    const again = await verify({ bank: "telebirr", transaction_number: "DGS2BT1W54" }, key);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms an older 9-character reference through the apps.ethiotelecom.et share form", async () => {
    const { response } = await verify({ receipt_url: "https://apps.ethiotelecom.et/receipt/CCP9E4VIT" });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(1100);
    sameInstant(response.body.data.receipt.transaction_date, "2025-07-18T19:58:20+03:00");
  });

  it("answers 404 for the 'This request is not correct' page", async () => {
    const { response } = await verify({ bank: "telebirr", transaction_number: "DEV5HLXDPV" });
    expect(response.status).toBe(404);
    expect(response.body.success).toBe(false);
    expect(response.body.exists).toBe(false);
    expect(response.body.duplicate).toBe(false);
    expect(response.body.message).toBe("Transaction not found.");
    expect(response.body.data.verification_id).toBeNull();
    expect(response.body.data.receipt).toEqual({});
  });

  it("answers 404 for a share link the bank does not know", async () => {
    const { response } = await verify({
      receipt_url: "https://transactioninfo.ethiotelecom.et/receipt/DET8FJGUJ4",
    });
    expect(response.status).toBe(404);
    expect(response.body.exists).toBe(false);
  });

  it("parse-url reads both share forms", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    for (const [url, ref] of [
      ["https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED", "DFH51OFIED"],
      ["https://apps.ethiotelecom.et/receipt/CCP9E4VIT", "CCP9E4VIT"],
    ] as const) {
      const response = await imitation.api.request("POST", "/verify/parse-url", {
        key,
        json: { receipt_url: url },
      });
      expect(response.status).toBe(200);
      expect(response.body.bank).toBe("telebirr");
      expect(response.body.transaction_number).toBe(ref);
      expect(response.body.requires_account_number).toBe(false);
      expect(response.body.source_url).toEqual(expect.any(String));
    }
  });
});
