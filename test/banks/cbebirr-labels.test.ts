import { describe, expect, it } from "vitest";
import {
  LABELS,
  type Label,
  ROW_START,
  startsWithLabel,
  TABLE_HEADER,
} from "../../src/banks/cbebirr/labels.js";
import { looksLikeCbeBirr } from "../../src/banks/cbebirr/receipt.js";

/** Every spelling the adapter or the copy reader (receipt.ts) accepted before labels.ts. */
const SPELLINGS: Record<Label, readonly string[]> = {
  title: ["VAT Invoice/ Customer Receipt", "VAT Invoice / Customer Receipt", "VAT Invoice Customer Receipt"],
  customerSection: ["Customer Information"],
  transactionSection: ["Transaction Information"],
  detailsSection: ["Transaction Details"],
  customer: ["Customer Name"],
  region: ["Region"],
  city: ["City"],
  subcity: ["Sub city", "Subcity"],
  wereda: ["Wereda/kebele", "Wereda / kebele", "Wereda kebele"],
  debit: ["Debit Account"],
  credit: ["Credit Account"],
  receiver: ["Receiver Name"],
  order: ["Order ID"],
  status: ["Transaction Status"],
  reference: ["Reference"],
  receiptNumber: ["Receipt Number", "Receipt No", "Receipt No."],
  date: ["Transaction Date"],
  paid: ["Paid amount"],
  charge: ["Service Charge"],
  vat: ["VAT"],
  total: ["Total Paid Amount"],
  words: ["Total Amount in word", "Amount in words"],
  reason: ["Payment Reason"],
  channel: ["Payment Channel"],
};

describe("CBE Birr receipt labels (banks.md §2.7)", () => {
  it.each(Object.keys(LABELS) as Label[])("%s starts a line in every spelling, spaced or glued", (label) => {
    for (const spelling of SPELLINGS[label]) {
      expect(startsWithLabel(label).test(`${spelling} 1`), spelling).toBe(true);
      expect(startsWithLabel(label).test(`${spelling.toUpperCase()}1`), spelling).toBe(true);
    }
  });

  it("finds the Transaction Details header and splits its glued row", () => {
    const header = new RegExp(`^(?:${TABLE_HEADER})`, "i");
    expect(header.test("Receipt Number Transaction Date Amount")).toBe(true);
    expect(header.test("Receipt NumberTransaction DateAmount")).toBe(true);
    const row = new RegExp(`^${ROW_START}`).exec("DIP41PM7JLY2026-09-25 16:3920.00");
    expect(row?.slice(1, 3)).toEqual(["DIP41PM7JLY", "2026-09-25"]);
  });

  it("tells the wallet's receipt by its accounts and one wallet label, not by a Credit Account Id", () => {
    expect(looksLikeCbeBirr(["Debit Account 251913572468", "Receipt No DIP5R2KQ8M"])).toBe(true);
    expect(looksLikeCbeBirr(["Credit Account 0944112233 - ROBEL", "Paid amount 450.00"])).toBe(true);
    expect(looksLikeCbeBirr(["Credit Account Id 1021", "Paid amount 450.00"])).toBe(false);
    expect(looksLikeCbeBirr(["Debit Account 251913572468", "Reference DIP5R2KQ8M"])).toBe(false);
  });
});
