import { describe, expect, it } from "vitest";
import { amountAsPageSays } from "../../src/reading/amount-adds-up.js";
import { amountInWords } from "../../src/reading/amount-in-words.js";

describe("the amount in words", () => {
  it.each([
    ["Amount in Word\tETB SIXTY-FOUR BIRR AND NINETY-SIX CENTS", 64.96],
    ["Transferred Amount in Word: ONE THOUSAND ONE HUNDRED SEVEN ETB AND FIFTY NINE CENTS ONLY", 1107.59],
    [
      "Total Amount in word\tTWELVE THOUSAND\nFIFTEEN Birr AND\nSIXTY-TWO cents\nPayment Mode\ttelebirr",
      12015.62,
    ],
    [
      "Amount in Word\tETB TWO HUNDRED FOURTEEN THOUSAND\nSEVEN HUNDRED SIXTY-ONE Birr\nThe Bank you can always rely on",
      214761,
    ],
    ["Total amount in word: ONE MILLION TWO HUNDRED THOUSAND BIRR", 1_200_000],
    // OCR's one wrong letter in a longer word.
    ["Amount in Word\tETB SIXTY-POUR Burr AND NINETY-SIX\ncents", 64.96],
  ])("%s → %d", (text, amount) => {
    expect(amountInWords(text)).toBe(amount);
  });

  it.each([
    ["no words at all", "Transferred Amount 64.35 ETB"],
    ["a word that is no number", "Amount in Word\tETB SIXTY-FOUR BIRR AND BANANA CENTS"],
    [
      "cents owed but not read",
      "Total Amount in word\tTWELVE THOUSAND\nFIFTEEN Birr AND\nPayment Mode telebirr",
    ],
    ["cents over 99", "Amount in Word\tEIGHTEEN NINE HUNDRED cents THREE"],
  ])("none with %s", (_case, text) => {
    expect(amountInWords(text)).toBeNull();
  });
});

describe("the amount as the page's figures say", () => {
  const page = (transferred: string, words: string) =>
    [
      `Transferred Amount\t${transferred} ETB`,
      "Commission or Service Charge\t0.50 ETB",
      "15% VAT on Commission\t0.08 ETB",
      "5% Disaster Recovery\t0.03 ETB",
      "Total amount debited from\t64.96 ETB",
      "customers account",
      `Amount in Word\t${words}`,
    ].join("\n");
  const words = "ETB SIXTY-FOUR BIRR AND NINETY-SIX CENTS";

  it("keeps an amount that adds up", () => {
    expect(amountAsPageSays(page("64.35", words), 64.35)).toBe(64.35);
  });

  it("mends a transfer read one digit wrong when the words say the total", () => {
    expect(amountAsPageSays(page("64.55", words), 64.55)).toBe(64.35);
  });

  it("keeps what was read when the words do not say the total, or more than one digit is off", () => {
    expect(amountAsPageSays(page("64.55", "ETB SIXTY-FIVE BIRR"), 64.55)).toBe(64.55);
    expect(amountAsPageSays(page("61.55", words), 61.55)).toBe(61.55);
    expect(amountAsPageSays("Transferred Amount 64.55 ETB", 64.55)).toBe(64.55);
  });
});
