import { describe, expect, it } from "vitest";
import { csvField, csvLine, inertText } from "../../src/history/csv.js";

describe("csvField and csvLine (RFC 4180)", () => {
  it("quotes only fields with a comma, a double quote or a line break, doubling quotes", () => {
    expect(csvField("Abebe Kebede")).toBe("Abebe Kebede");
    expect(csvField("አበበ ከበደ")).toBe("አበበ ከበደ");
    expect(csvField("Bole, Addis")).toBe('"Bole, Addis"');
    expect(csvField('the "till"')).toBe('"the ""till"""');
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("")).toBe("");
    expect(csvField(null)).toBe("");
  });

  it("ends each line with CRLF", () => {
    expect(csvLine(["1", null, "a,b"])).toBe('1,,"a,b"\r\n');
  });
});

describe("inertText (CSV injection)", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ['=HYPERLINK("http://evil","x")', '\'=HYPERLINK("http://evil","x")'],
    ["+251911000000", "'+251911000000"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1+1", "'\t=1+1"],
    ["\rx", "'\rx"],
    ["-2+3", "'-2+3"],
    ["-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"],
    ["-", "'-"],
    ["--1", "'--1"],
    ["-A1 ", "'-A1 "],
    ["-1.5", "'-1.5"],
  ])("prefixes %j", (text, shown) => {
    expect(inertText(text)).toBe(shown);
  });

  it.each([
    // Awash share tokens (docs/banks.md §1.2), new and old style, kept exactly.
    "-2KDL95Z0NR-4U61O6",
    "-E41AE0D86FFA-21XYYW",
    "-E43406CDD679-2CQJIP",
    "-1500",
    "FT26140P01YB",
    "Abebe = Kebede",
    "a+b",
    "ሰላም",
    "",
  ])("keeps %j", (text) => {
    expect(inertText(text)).toBe(text);
  });

  it("leaves a missing value missing", () => {
    expect(inertText(null)).toBeNull();
  });
});
