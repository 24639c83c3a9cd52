import { describe, expect, it } from "vitest";
import { htmlText, htmlToLines } from "../../src/reading/parse-utils.js";

describe("htmlText: a fragment's text on one line", () => {
  it("is htmlToLines(fragment).join(' ') for plain, spaced, tagged and entity-laden cells", () => {
    const fragments = [
      "Payer Name",
      "የከፋይ ስም/Payer Name",
      "  Dawit   Mekonnen\tBekele \n",
      "Sixty Birr &amp; Zero Cents",
      "ኢትዮ ቴሌኮም/Ethio telecom<br>TIN 0000030603<br>VAT Reg No 012700",
      "<span>60.00</span>\u00a0Birr",
      "a\u00a0b",
      "\ttab first",
      "last space ",
      "",
      "   ",
    ];
    for (const fragment of fragments) {
      expect(htmlText(fragment), JSON.stringify(fragment)).toBe(htmlToLines(fragment).join(" "));
    }
  });
});
