// Black-box check of the real API against an outsider's Siinqee imitation (docs/banks.md §2.9),
// held to the answers of docs/api.md §4.1–4.2.
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../support/api.js";
import { expectNotFound } from "./expectations.js";
import { useImitation } from "./harness.js";
import { type SinqeeTransaction, sinqeeTransactions, startSinqeeImitation } from "./sinqee.js";

const [first, second, third] = sinqeeTransactions as [
  SinqeeTransaction,
  SinqeeTransaction,
  SinqeeTransaction,
];
const newLink = (ref: string) => `https://siinqeebank.com/receipt/${ref}`;
const eBirrLink = (ref: string) => `https://receipt.ebirr.com/siinqee/${ref}`;

describe("Siinqee imitation through the API", () => {
  const imitation = useImitation(startSinqeeImitation);
  let key: string;
  beforeAll(async () => {
    key = (await createTenant(imitation.api.db, { quota: 100 })).key;
  });

  const verify = async (json: Record<string, unknown>) => (await imitation.verify(json, key)).response;

  it.each([
    ["siinqeebank.com link", newLink(first.reference)],
    ["old eBirr link", eBirrLink(first.reference)],
  ])("parse-url reads the %s", async (_form, url) => {
    const res = await imitation.api.request("POST", "/verify/parse-url", { key, json: { receipt_url: url } });
    expect(res.status).toBe(200);
    expect(res.body.bank).toBe("sinqee");
    expect(typeof res.body.bank_name).toBe("string");
    expect(res.body.transaction_number).toBe(first.reference);
    expect(res.body.requires_account_number).toBe(false);
  });

  it("confirms bank + reference from a table-style receipt, amount without fees", async () => {
    const res = await verify({ bank: "sinqee", transaction_number: first.reference });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.exists).toBe(true);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.data.bank).toBe("sinqee");
    expect(res.body.data.transaction_number).toBe(first.reference);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(2350);
    expect(receipt.currency).toBe("ETB");
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-09-07T14:32:00+03:00"));
    expect(receipt.transaction_date).toMatch(/(\+03:00|Z)$/);
    expect(receipt.payer_name).toBe("GEMECHU TOLERA DIBABA");
    expect(receipt.receiver_name).toBe("OROMIA AGRO TRADING PLC");
    expect(imitation.bank.hits).toContain(`/receipt/${first.reference}`);
  });

  it("calls it a duplicate when the same transfer comes back as a link", async () => {
    const res = await verify({ receipt_url: newLink(first.reference) });
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(true);
    expect(res.body.success).toBe(false);
    expect(Number.isInteger(res.body.existing_verification_id)).toBe(true);
    expect(typeof res.body.verified_at).toBe("string");
  });

  it("confirms a siinqeebank.com link to a <strong>Label:</strong> receipt (Sender/Beneficiary, status Success)", async () => {
    const res = await verify({ receipt_url: newLink(second.reference) });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const receipt = res.body.data.receipt;
    expect(receipt.amount).toBe(9800);
    expect(Date.parse(receipt.transaction_date)).toBe(Date.parse("2026-09-10T08:15:42+03:00"));
    expect(receipt.payer_name).toBe("CHALTU BEKELE");
    expect(receipt.receiver_name).toBe("OROMIA AGRO TRADING PLC");
  });

  it("re-routes an old eBirr link to siinqeebank.com, and never confirms a wrong receiving account", async () => {
    const wrong = await verify({ receipt_url: eBirrLink(third.reference), account_number: "1000999999999" });
    expect(wrong.status).toBe(200);
    expect(wrong.body.success).toBe(false);
    // Found at the bank, paid elsewhere: exists stays true.
    expect(wrong.body.exists).toBe(true);
    const right = await verify({ receipt_url: eBirrLink(third.reference), account_number: "1000312456789" });
    expect(right.status).toBe(200);
    expect(right.body.success).toBe(true);
    expect(right.body.data.receipt.amount).toBe(640);
    expect(imitation.bank.hits).not.toContain(`/siinqee/${third.reference}`);
  });

  it("answers 404 for an unknown reference (the eBirr-style 200 'Not Found Page')", async () => {
    const unknown = "FT26259ZZZZZ";
    for (const json of [{ bank: "sinqee", transaction_number: unknown }, { receipt_url: newLink(unknown) }]) {
      const res = await verify(json);
      expectNotFound(res);
    }
  });
});
