// The real API as a black box against an outsider's Awash imitation (docs/banks.md §2.4),
// held to the answers of docs/api.md §4.1–4.2.
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { startAwash } from "./awash.js";
import { expectNotFound, sameInstant } from "./expectations.js";
import { useImitation } from "./harness.js";

const origin = "https://awashpay.awashbank.com:8225";

const imitation = useImitation(startAwash);
const { verify } = imitation;

describe("awash", () => {
  it("confirms a share link, then the same token as transaction_number is a duplicate", async () => {
    const { key, response } = await verify({ receipt_url: `${origin}/-2KDL95Z0NR-4U61O6` });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.duplicate).toBe(false);
    expect(response.body.data.bank).toBe("awash");
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(3000);
    expect(receipt.currency).toBe("ETB");
    sameInstant(receipt.transaction_date, "2026-06-07T11:22:41+03:00");
    expect(receipt.payer_name).toBe("ALMAZ DEBEBE");
    expect(receipt.receiver_name).toBe("GETNET ABERA");

    const again = await verify({ bank: "awash", transaction_number: "-2KDL95Z0NR-4U61O6" }, key);
    expect(again.response.status).toBe(200);
    expect(again.response.body.success).toBe(false);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms a token given as transaction_number (IPS, bare amount, PM time), then the link is a duplicate", async () => {
    const { key, response } = await verify({ bank: "awash", transaction_number: "-2KCGUFT5ND-3Q8ZKT" });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(800);
    sameInstant(receipt.transaction_date, "2026-05-19T15:05:53+03:00");
    expect(receipt.payer_name).toBe("BIRUK TESHOME");
    expect(receipt.receiver_name).toBe("SARA MOHAMMED");

    const again = await verify({ receipt_url: `${origin}/-2KCGUFT5ND-3Q8ZKT` }, key);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms a merchant payment (no Transaction ID row; 'Transaction Time'), twice is a duplicate", async () => {
    const { key, response } = await verify({ receipt_url: `${origin}/-2KESVZ1WFO-1B7QXA` });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(1000);
    sameInstant(receipt.transaction_date, "2026-07-02T09:30:15+03:00");
    expect(receipt.payer_name).toBe("HELEN WOLDE");
    expect(receipt.receiver_name).toBe("KALDIS COFFEE BOLE");

    const again = await verify({ receipt_url: `${origin}/-2KESVZ1WFO-1B7QXA` }, key);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms a pre-2026 token with a date-only Transaction Date", async () => {
    const { response } = await verify({ receipt_url: `${origin}/-E41AE0D86FFA-21XYYW` });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(1250);
    expect(String(receipt.transaction_date)).toMatch(/(Z|[+-]\d\d:\d\d)$/);
    const at = Date.parse(receipt.transaction_date);
    expect(at).toBeGreaterThanOrEqual(Date.parse("2025-11-03T00:00:00+03:00"));
    expect(at).toBeLessThan(Date.parse("2025-11-04T00:00:00+03:00"));
    expect(receipt.payer_name).toBe("FIKRU ASSEFA");
    expect(receipt.receiver_name).toBe("ZERIHUN TADESSE");
  });

  it("confirms a telebirr transfer whose rows repeat the sender as Customer Name", async () => {
    const { response } = await verify({ receipt_url: `${origin}/-2KGB4NRL2M-5D2HQN` });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(300);
    sameInstant(receipt.transaction_date, "2026-08-20T16:45:30+03:00");
    expect(receipt.payer_name).toBe("ALMAZ DEBEBE");
    expect(typeof receipt.receiver_name).toBe("string");
  });

  it("confirms a telebirr transfer whose rows name the telebirr customer paid (payer = header's Customer Name)", async () => {
    const { response } = await verify({ receipt_url: `${origin}/-2KGB4NRL2L-5D2HQM` });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(450);
    sameInstant(receipt.transaction_date, "2026-08-20T16:45:00+03:00");
    expect(receipt.payer_name).toBe("ALMAZ DEBEBE");
  });

  it("answers 404 for the bank's 200 'Receipt not found'", async () => {
    const { response } = await verify({ receipt_url: `${origin}/-E43406CDD679-2CQJIP` });
    expectNotFound(response);
  });

  it("never confirms a bare 15-digit Transaction ID (the link is needed)", async () => {
    const { response } = await verify({ bank: "awash", transaction_number: "260607112275735" });
    expect(response.body.success).not.toBe(true);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("parse-url reads a share link as a token link", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    const response = await imitation.api.request("POST", "/verify/parse-url", {
      key,
      json: { receipt_url: `${origin}/-2KDL95Z0NR-4U61O6` },
    });
    expect(response.status).toBe(200);
    expect(response.body.bank).toBe("awash");
    expect(response.body.receipt_token).toBe("-2KDL95Z0NR-4U61O6");
    expect(response.body.transaction_number).toEqual(expect.any(String));
    expect(response.body.requires_account_number).toBe(false);
  });
});
