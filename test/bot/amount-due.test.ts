import { describe, expect, it } from "vitest";
import { amountDue, compareWithDue } from "../../bot/amount-due.js";

describe("the amount due a cashier states", () => {
  it.each([
    ["1500", 1500],
    ["1,500.00", 1500],
    ["1500 birr", 1500],
    ["ETB 1,250.50", 1250.5],
    ["ብር 1500", 1500],
    ["  750 Br ", 750],
  ])("a caption %j is %d", (caption, amount) => {
    expect(amountDue(caption)).toBe(amount);
  });

  it.each([
    ["a caption with words", "paid for 2 shirts 1500"],
    ["two amounts", "1500 2000"],
    ["an account number", "1000217529647"],
    ["zero", "0"],
    ["nothing", ""],
  ])("%s states none", (_name, caption) => {
    expect(amountDue(caption)).toBeNull();
  });

  it("takes the amount on the line of the link or reference, never from a pasted message", () => {
    const link = "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED";
    expect(amountDue(`${link} 1,200`, link)).toBe(1200);
    expect(amountDue(`hello\n1200 birr ${link}`, link)).toBe(1200);
    expect(amountDue(`FT26140P01YB 3500`, "FT26140P01YB")).toBe(3500);
    const sms = `You have transferred ETB 60.00 to Hana (2519****4025) on 17/06/2026. ${link}`;
    expect(amountDue(sms, link)).toBeNull();
    expect(amountDue(`${sms}\n1500`, link)).toBeNull();
  });

  it("takes an amount alone on the one other line of the cashier's two-line message", () => {
    const link = "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED";
    expect(amountDue(`${link}\n1500`, link)).toBe(1500);
    expect(amountDue(`1,500.00 birr\n\n${link}\n`, link)).toBe(1500);
    expect(amountDue("3500\nFT26140P01YB", "FT26140P01YB")).toBe(3500);
    expect(amountDue(`1500\n${link}\n2000`, link)).toBeNull();
    expect(amountDue(`paid today\n${link}`, link)).toBeNull();
    expect(amountDue(`Dear customer, ETB 60.00 was sent\n${link}`, link)).toBeNull();
  });

  it("compares to the cent", () => {
    expect(compareWithDue(1500, 1500)).toEqual({ kind: "matches" });
    expect(compareWithDue(1400, 1500)).toEqual({ kind: "short", by: 100 });
    expect(compareWithDue(1500.5, 1500)).toEqual({ kind: "over", by: 0.5 });
  });
});
