import { describe, expect, it } from "vitest";
import type { LookupOutcome, Receipt } from "../../src/banks/types.js";
import { judge } from "../../src/engine/judge.js";
import type { Resolved } from "../../src/engine/resolve.js";
import { VERIFICATION_METHODS } from "../../src/engine/types.js";

// The verdict on a bank answer is a pure function of the answer, the resolved request and the branch's saved
// accounts, so it is tested on its own.

const RECEIPT: Receipt = {
  status: "completed",
  amount: 1500,
  currency: "ETB",
  transactionDate: "2026-11-20T10:15:00+03:00",
  payerName: "Lensa Abdisa",
  payerAccount: "1000111122223",
  receiverName: "Abebe Kebede",
  receiverAccount: "1****1685",
  description: null,
};
const found = (receipt: Partial<Receipt> = {}): LookupOutcome => ({
  kind: "found",
  reference: "FT26140P01YB",
  receipt: { ...RECEIPT, ...receipt },
});

function resolved(overrides: Partial<Resolved> = {}): Resolved {
  return {
    bank: "cbe",
    target: { transactionNumber: "FT26140P01YB", account: null, token: null },
    expectedReceiver: null,
    expectedMayBePayer: false,
    accountNumber: null,
    sourceUrl: null,
    method: VERIFICATION_METHODS.reference,
    claimed: null,
    ...overrides,
  };
}

describe("judge", () => {
  it("confirms a completed transfer, with its receipt columns", () => {
    const verdict = judge(found(), resolved(), []);
    expect(verdict).toMatchObject({ kind: "confirmed", message: null, receiverNotSaved: false });
    expect(verdict.columns).toMatchObject({
      amount: 1500,
      receiverAccount: "1****1685",
      transactionType: null,
    });
  });

  it("records a transaction the bank does not know with no receipt", () => {
    const verdict = judge({ kind: "not_found" }, resolved(), []);
    expect(verdict).toMatchObject({ kind: "not_found", message: "Transaction not found." });
    expect(Object.values(verdict.columns).every((value) => value === null)).toBe(true);
  });

  it("refuses a transfer that is not completed, naming its status", () => {
    expect(judge(found({ status: "pending" }), resolved(), [])).toMatchObject({
      kind: "not_completed",
      message: "The transaction is not completed (status: pending).",
    });
  });

  it("refuses a payment to another account than the one given, but not the payer's own for BOA", () => {
    expect(judge(found(), resolved({ expectedReceiver: "1000222233334" }), []).kind).toBe("wrong_account");
    expect(judge(found(), resolved({ expectedReceiver: "1000123451685" }), []).kind).toBe("confirmed");
    const payersOwn = resolved({ bank: "boa", expectedReceiver: "1000111122223", expectedMayBePayer: true });
    expect(judge(found(), payersOwn, []).kind).toBe("confirmed");
  });

  it("holds an uploaded document against the bank's answer", () => {
    const claimed = {
      bank: "cbe" as const,
      transactionNumber: "FT26140P01YB",
      accountNumber: null,
      shareUrl: null,
      receipt: { amount: 2500 },
    };
    const verdict = judge(found(), resolved({ claimed, method: "receipt_pdf" }), []);
    expect(verdict.kind).toBe("document_mismatch");
    expect(verdict.message).toContain("amount differs");
  });

  it("says when a confirmed payment went to none of the branch's saved accounts", () => {
    expect(judge(found(), resolved(), ["1000123451685"]).receiverNotSaved).toBe(false);
    expect(judge(found(), resolved(), ["1000999990000"]).receiverNotSaved).toBe(true);
    // Nothing saved for the bank, or nothing shown to compare: no warning.
    expect(judge(found({ receiverAccount: "****" }), resolved(), ["1000999990000"]).receiverNotSaved).toBe(
      false,
    );
  });
});
