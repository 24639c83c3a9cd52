import { describe, expect, it } from "vitest";
import { AT_LINE_START, type LABELS, WHOLE_KEY } from "../../src/banks/amhara/labels.js";

// One label, one pattern (docs/banks.md §2.10): the API's JSON key ("sendorName") and the page's words for it
// ("Sendor Name") are the same label.
describe("Amhara labels, written once for the adapter and the receipt reader", () => {
  const keys: [keyof typeof LABELS, string, string][] = [
    ["transactionReference", "transactionReference", "Transaction Reference: FT26248K7Q1P"],
    ["senderName", "sendorName", "Sendor Name: Yonas Abebe"],
    ["senderAccount", "sendorAccount", "Sendor Account 1000341187205"],
    ["debitorName", "debitorName", "Debitor Name A2A Transfer"],
    ["debitAccount", "debitAccount", "Debit Account ETB1251700010003"],
    ["creditorName", "creditorName", "Creditor Name Dawit"],
    ["receiverName", "receiverName", "Receiver Name Hana"],
    ["receiverAccount", "reveiverAccount", "Reveiver Account 1000217529647"],
    ["creditAccountId", "creditAccountId", "Credit Account Id 9900050363768"],
    ["amount", "amount", "Amount 5000.00"],
    ["totalAmount", "totalAmount", "Total Amount ETB5000.00"],
    ["netChargeAmount", "netChargeAmount", "Net Charge Amount ETB0"],
    ["currencyId", "currencyId", "Currency Id ETB"],
    ["dateTime", "dateTime", "Date & Time 2609051714"],
    ["bookingDate", "bookingDate", "Booking Date 20260905"],
    ["transactionDesc", "transactionDesc", "Transaction Desc IPS Incoming Txn"],
    ["status", "status", "Status Auth"],
  ];

  it.each(keys)("%s: the API key %s and the printed label", (label, key, line) => {
    expect(WHOLE_KEY[label].test(key)).toBe(true);
    expect(AT_LINE_START[label].test(line)).toBe(true);
  });

  it("does not take a longer key for a shorter label", () => {
    expect(WHOLE_KEY.amount.test("totalAmount")).toBe(false);
    expect(WHOLE_KEY.amount.test("netChargeAmount")).toBe(false);
    expect(WHOLE_KEY.date.test("bookingDate")).toBe(false);
    expect(WHOLE_KEY.creditAccount.test("creditAccountId")).toBe(false);
  });
});
