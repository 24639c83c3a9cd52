import { describe, expect, it } from "vitest";
import { repairReference } from "../../src/reading/text.js";

describe("repairReference", () => {
  it("reads a lower-case l or a bar as I where the shape wants a letter", () => {
    // Dashen's FT Ref: 3 free characters, 4 letters, YYDDD, 4 free characters.
    expect(repairReference("B22WDTl2616Z0001", "XXXAAAA99999XXXX")).toBe("B22WDTI261620001");
    expect(repairReference("B22WDT|261620001", "XXXAAAA99999XXXX")).toBe("B22WDTI261620001");
    expect(repairReference("Cl89ORBSUJ", "AAXXXXXXXX")).toBe("CI89ORBSUJ");
  });

  it("still reads l and | as 1 where the shape wants a digit", () => {
    expect(repairReference("FT26l4|P01YB", "FT99999XXXXX")).toBe("FT26141P01YB");
  });

  it("upper-cases other letters where a letter must stand and turns digit look-alikes into letters", () => {
    expect(repairReference("b22wdti261620001", "XXXAAAA99999XXXX")).toBe("B22WDTI261620001");
    expect(repairReference("D1P54O52IR", "AAXXXXXXXX")).toBe("DIP54O52IR");
    expect(repairReference("5J72HK3YZ9", "AAXXXXXXXX")).toBe("SJ72HK3YZ9");
  });

  it("keeps free positions as read, only upper-cased", () => {
    // Where a letter or a digit may stand, nothing says which one OCR confused.
    expect(repairReference("822LTWS26226OOWJ", "XXXAAAA99999XXXX")).toBe("822LTWS26226OOWJ");
    expect(repairReference("822LTWS2622600wj", "XXXAAAA99999XXXX")).toBe("822LTWS2622600WJ");
  });

  it("returns null when the candidate cannot fit the shape", () => {
    expect(repairReference("B22WDT", "XXXAAAA99999XXXX")).toBeNull();
    expect(repairReference("B22WD7I261620001", "XXXAAAA99999XXXX")).toBeNull();
    expect(repairReference("FT2614X101YB", "FT99999XXXXX")).toBeNull();
  });
});
