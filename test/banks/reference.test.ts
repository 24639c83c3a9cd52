import { describe, expect, it } from "vitest";
import { ReceiptFormatError } from "../../src/banks/errors.js";
import { foundByReference, foundByToken } from "../../src/banks/reference.js";
import type { Receipt } from "../../src/banks/types.js";

const RECEIPT: Receipt = {
  status: "completed",
  amount: 10,
  currency: "ETB",
  transactionDate: "2026-05-20T19:29:00+03:00",
  payerName: "",
  payerAccount: "",
  receiverName: "",
  receiverAccount: "",
  description: null,
};

describe("the reference a found receipt is reported under", () => {
  it("is the requested reference when the answer shows the same one or none", () => {
    for (const shown of ["FT26140P01YB", "", null, undefined]) {
      expect(foundByReference("boa", RECEIPT, shown, "FT26140P01YB")).toEqual({
        kind: "found",
        receipt: RECEIPT,
        reference: "FT26140P01YB",
      });
    }
  });

  it("refuses an answer about another transaction", () => {
    const attempt = () => foundByReference("boa", RECEIPT, "FT26149FW949", "FT26140P01YB");
    expect(attempt).toThrow(ReceiptFormatError);
    expect(attempt).toThrow("answered with another transaction (FT26149FW949)");
  });

  it("is the answer's own reference for a token lookup, else the token", () => {
    expect(foundByToken(RECEIPT, "FT26140P01YB", "v2-hfHCxGvIhvqVMTB7hylL")).toMatchObject({
      reference: "FT26140P01YB",
    });
    expect(foundByToken(RECEIPT, "", "v2-hfHCxGvIhvqVMTB7hylL")).toMatchObject({
      reference: "v2-hfHCxGvIhvqVMTB7hylL",
    });
  });
});
