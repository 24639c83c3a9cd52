// The real API as a black box against an outsider's BOA imitation (docs/banks.md §2.5, docs/api.md §4.1–4.2).
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { startBoa } from "./boa.js";
import { expectNotFound, sameInstant } from "./expectations.js";
import { useImitation } from "./harness.js";

const slip = "https://cs.bankofabyssinia.com/slip/?trx=";

const imitation = useImitation(startBoa);
const { verify } = imitation;

describe("boa", () => {
  it("confirms FT + receiving account, then the slip link (payer's suffix) is a duplicate", async () => {
    const { key, response } = await verify({
      bank: "boa",
      transaction_number: "FT26083XJRMH",
      account_number: "888013487",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.duplicate).toBe(false);
    expect(response.body.data.bank).toBe("boa");
    expect(response.body.data.transaction_number).toBe("FT26083XJRMH");
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(1107.59);
    expect(receipt.currency).toBe("ETB");
    sameInstant(receipt.transaction_date, "2026-03-24T10:15:00+03:00");
    expect(receipt.payer_name).toBe("NATNAEL ASEFA KEBEDE");
    expect(receipt.receiver_name).toBe("BLUE NILE PHARMACY");

    const again = await verify({ receipt_url: `${slip}FT26083XJRMH26009` }, key);
    expect(again.response.status).toBe(200);
    expect(again.response.body.success).toBe(false);
    expect(again.response.body.duplicate).toBe(true);
    expect(again.response.body.existing_verification_id).toEqual(expect.any(Number));
  });

  it("confirms a TT slip link (other key set), then TT + beneficiary account is a duplicate", async () => {
    const { key, response } = await verify({ receipt_url: `${slip}TT26171RW0YG02723` });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(200);
    sameInstant(receipt.transaction_date, "2026-06-20T17:32:00+03:00");
    expect(receipt.payer_name).toBe("MESERET HAILU");
    expect(receipt.receiver_name).toBe("AMANUEL TEKLE");

    const again = await verify(
      { bank: "boa", transaction_number: "TT26171RW0YG", account_number: "305111144" },
      key,
    );
    expect(again.response.status).toBe(200);
    expect(again.response.body.duplicate).toBe(true);
  });

  it("confirms a transfer with mixed key spellings and the app's date form", async () => {
    const { response } = await verify({
      bank: "boa",
      transaction_number: "FT252003JZPP",
      account_number: "415570044",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const receipt = response.body.data.receipt;
    expect(receipt.amount).toBe(5000);
    sameInstant(receipt.transaction_date, "2025-07-19T17:32:13+03:00");
    expect(receipt.payer_name).toBe("YEABSIRA GEBREMEDHIN");
    expect(receipt.receiver_name).toBe("ADDIS MOTORS SPARE PARTS");
  });

  it("with the payer's own account as account_number (the SMS owner's suffix) does not claim a different receiver", async () => {
    const { response } = await verify({
      bank: "boa",
      transaction_number: "FT252003JZPP",
      account_number: "206631190",
    });
    expect(response.body.exists).toBe(true);
    expect(response.body.data.receipt.receiver_name).toBe("ADDIS MOTORS SPARE PARTS");
  });

  it("confirms FT + only the last 5 digits of the receiving account (account_digits 5 in GET /banks)", async () => {
    const { response } = await verify({
      bank: "boa",
      transaction_number: "FT26083XJRMH",
      account_number: "13487",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.receipt.amount).toBe(1107.59);
  });

  it("answers 404 for the bank's 200 'Invalid reference number'", async () => {
    const { response } = await verify({
      bank: "boa",
      transaction_number: "FT26200QWERT",
      account_number: "888013487",
    });
    expectNotFound(response);
  });

  it("answers 404 for an unknown slip link", async () => {
    const { response } = await verify({ receipt_url: `${slip}FT252113TRLT13487` });
    expect(response.status).toBe(404);
    expect(response.body.exists).toBe(false);
  });

  it("never confirms a wrong account", async () => {
    const { response } = await verify({
      bank: "boa",
      transaction_number: "FT26083XJRMH",
      account_number: "777055555",
    });
    expect(response.body.success).toBe(false);
    expect(response.status).toBe(404);
  });

  it("refuses a reference without an account (422, required for boa)", async () => {
    const { response } = await verify({ bank: "boa", transaction_number: "FT26083XJRMH" });
    expect(response.status).toBe(422);
  });

  it("parse-url splits a slip link into reference and account suffix", async () => {
    const { key } = await createTenant(imitation.api.db, { quota: 100 });
    const response = await imitation.api.request("POST", "/verify/parse-url", {
      key,
      json: { receipt_url: `${slip}FT26083XJRMH26009` },
    });
    expect(response.status).toBe(200);
    expect(response.body.bank).toBe("boa");
    expect(response.body.transaction_number).toBe("FT26083XJRMH");
    expect(response.body.account_number).toBe("26009");
    expect(response.body.requires_account_number).toBe(false);
  });

  it("asked the slip API with the 17-character id", () => {
    expect(imitation.bank.requests).toContain("/api/onlineSlip/getDetails/?id=FT26083XJRMH13487");
  });
});
