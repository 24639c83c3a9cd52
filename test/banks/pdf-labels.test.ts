import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { plainLines, readInlineLabel, readLabels, textLines } from "../../src/reading/pdf-labels.js";

// The bank-specific readings are covered by each bank's tests; these pin the shared behaviour.

describe("pdf-labels: labels at the start of a line", () => {
  it("reads glued, spaced and stacked values, and a label that occurs twice", () => {
    const lines = textLines("PayerA B\nAccount 1****1685\nReceiver\nC D\nAccount1****6171");
    const values = readLabels(lines, [
      { key: "payer", label: "Payer", kind: "text" },
      { key: "receiver", label: "Receiver", kind: "text" },
      { key: "account", label: "Account", kind: "text", value: /^[\d*]/ },
    ]);
    expect(Object.fromEntries(values)).toEqual({
      payer: ["A B"],
      receiver: ["C D"],
      account: ["1****1685", "1****6171"],
    });
  });

  it("keeps pdf.js item gaps as tabs in textLines and as spaces in plainLines", () => {
    expect(textLines("  a \t  b  \n\n c ")).toEqual(["a\tb", "c"]);
    expect(plainLines("  a \t  b  \n\n c ")).toEqual(["a b", "c"]);
  });
});

describe("pdf-labels: labels anywhere on a line", () => {
  const LABELS = {
    name: /Payer name:?/i,
    account: /Payer account no\.?:?/i,
    ref: /Reference No:?/i,
  } as const;

  it("cuts a value at the next label on its line", () => {
    const lines = ["Payer name: A B Payer account no.: 1021******018"];
    expect(readInlineLabel(lines, LABELS, "name", { linesBelow: 1 })).toBe("A B");
    expect(readInlineLabel(lines, LABELS, "account", { linesBelow: 1 })).toBe("1021******018");
  });

  it("looks below a bare label, but not past another label or the allowed lines", () => {
    const lines = ["Payer name:", "", "Reference No:", "108ATWR2520600HM"].filter(Boolean);
    expect(readInlineLabel(lines, LABELS, "name", { linesBelow: 2 })).toBe("");
    expect(readInlineLabel(lines, LABELS, "ref", { linesBelow: 1 })).toBe("108ATWR2520600HM");
    expect(readInlineLabel(lines, LABELS, "account", { linesBelow: 1 })).toBeUndefined();
  });

  it("lets a bank scrub its own noise from values", () => {
    const lines = ["Payer name / የከፋይ ስም A B"];
    const scrub = (value: string) => value.replace(/[\u1200-\u139f]+/g, " ");
    expect(readInlineLabel(lines, LABELS, "name", { linesBelow: 1, scrub })).toBe("A B");
  });

  it("reads a value holding 400,000-character runs of colons in linear time", () => {
    // OCR reads table rules as runs of colons. The run inside the value is kept, the one ending it is
    // trimmed; an unanchored trailing trim took seconds on a 50,000-character run (quadratic in the run).
    // At 400,000 that is minutes, linear is milliseconds: V8 stops the read at 10 s, a bound only the
    // quadratic one reaches however loaded the machine (how fast it is, is the bench's figure).
    const colons = ":".repeat(400_000);
    const read = () =>
      readInlineLabel([`Payer name: A${colons}B${colons}`], LABELS, "name", { linesBelow: 1 });
    const value = vm.runInNewContext("read()", { read }, { timeout: 10_000 }) as string | undefined;
    expect(value).toBe(`A${colons}B`);
  });
});
