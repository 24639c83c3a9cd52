import { describe, expect, it } from "vitest";
import { receiverMatches } from "../../src/engine/account-match.js";

describe("receiverMatches", () => {
  it.each([
    ["a full CBE account against the PDF mask", "1000560536171", "1****6171", true],
    ["the last 8 digits CBE's lookup uses (banks.md §2.1 B)", "60536171", "1****6171", true],
    ["the last 8 digits against the API's mask", "56781685", "1********1685", true],
    ["the last 4 digits", "6171", "1****6171", true],
    ["a full account with another first digit", "2000560536171", "1****6171", false],
    ["another tail", "1000560536172", "1****6171", false],
    ["a suffix with another tail", "60536172", "1****6171", false],
    ["a full phone against a masked phone", "251911234025", "2519****4025", true],
    ["a phone of another operator prefix", "251711234025", "2519****4025", false],
    ["an unmasked account, given in full", "1000560536171", "1000560536171", true],
    ["an unmasked account, given by its last digits", "36171", "1000560536171", true],
  ])("%s", (_what, expected, printed, matches) => {
    expect(receiverMatches(expected, printed)).toBe(matches);
  });
});
