import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import type { BankResponse } from "../../src/banks/types.js";
import {
  createZemenAdapter,
  parseZemenReceiptText,
  readZemenReceiptText,
  zemenDate,
} from "../../src/banks/zemen/adapter.js";
import { simulatedZemen } from "../../src/banks/zemen/imitation.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { describeBankContract } from "./contract.js";

const TOKEN = "94497018108ATWR2520600HM";

describeBankContract({
  adapter: (network) => createZemenAdapter({ network }),
  bank: simulatedZemen,
  shareUrls: [
    {
      url: `https://share.zemenbank.com/rt/${TOKEN}/pdf`,
      expected: { transactionNumber: TOKEN, accountNumber: null, token: TOKEN },
    },
    {
      url: `https://share.zemenbank.com/rt/${TOKEN}`,
      expected: { transactionNumber: TOKEN, accountNumber: null, token: TOKEN },
    },
  ],
  foreignUrls: [
    `https://evil.example/rt/${TOKEN}/pdf`,
    `https://zemenbank.com/rt/${TOKEN}/pdf`,
    `https://share.zemenbank.com/rt/${TOKEN.slice(0, 20)}/pdf`,
    `https://share.zemenbank.com/receipt/${TOKEN}`,
  ],
  invalidTargets: [
    { transactionNumber: "FT25206ABCDE", account: null, token: null },
    { transactionNumber: "ETTB261540027", account: null, token: null },
    { transactionNumber: "", account: null, token: null },
    { transactionNumber: "94497018108ATWR2520600H", account: null, token: "94497018108ATWR2520600H" },
  ],
});

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/banks/zemen/${name}`, import.meta.url), "utf8");
const answer = (body: string | Buffer, status: number, contentType = "application/json"): BankResponse => ({
  status,
  headers: { "content-type": contentType },
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});
const target = { transactionNumber: TOKEN, account: null, token: TOKEN };

describe("Zemen receipt PDF text", () => {
  it("reads labels glued to values, a detail holding an account number, and a time with am/pm", () => {
    expect(parseZemenReceiptText(fixture("glued.txt"))).toEqual({
      status: "completed",
      transactionType: "TRANSFER TO 1031110045678010",
      amount: 480.5,
      currency: "ETB",
      transactionDate: "2025-06-29T10:55:59+03:00",
      payerName: "LIDYA MULUGETA ABERA",
      payerAccount: "1021******018",
      receiverName: "EYOB TESHOME",
      receiverAccount: "1031110045678010",
      description: null,
    });
  });

  it("reads the settled amount under a 'Transaction Detail | Settled Amount' header, two labels per line", () => {
    expect(parseZemenReceiptText(fixture("table.txt"))).toEqual({
      status: "completed",
      transactionType: "ATM CASH WITHDRAWAL",
      amount: 1600,
      currency: "ETB",
      transactionDate: "2025-07-25T12:05:00+03:00",
      payerName: "BEREKET ALEMAYEHU WOLDE",
      payerAccount: "1021******018",
      receiverName: "MAHLET GETACHEW ASSEFA",
      receiverAccount: "1052******907",
      description: null,
    });
  });

  it("derives the settled amount from Total Amount Paid minus charges when it is not printed", () => {
    expect(parseZemenReceiptText(fixture("no-settled.txt"))).toMatchObject({
      status: "pending",
      amount: 500,
      transactionDate: "2026-01-01T00:00:01+03:00",
      transactionType: "",
    });
  });

  it("reads a time printed without am/pm as a 24-hour time (banks.md §1.6 brackets the time)", () => {
    expect(zemenDate("29-Jun-2025, 14:05:09")).toBe("2025-06-29T14:05:09+03:00");
    expect(zemenDate("29-JUN-2025 09:30")).toBe("2025-06-29T09:30:00+03:00");
    expect(zemenDate("29-Jun-2025, 10:55:59 am")).toBe("2025-06-29T10:55:59+03:00");
    expect(zemenDate("29-Jun-2025")).toBe("2025-06-29T00:00:00+03:00");
  });

  it("fails with ReceiptFormatError without an amount, a date or a status", () => {
    const text = fixture("table.txt");
    expect(() => parseZemenReceiptText(text.replace(/ETB [\d,.]+/g, ""))).toThrow(ReceiptFormatError);
    expect(() => parseZemenReceiptText(text.replace("25-Jul-2025, 12:05:00 PM", ""))).toThrow(
      ReceiptFormatError,
    );
    expect(() => parseZemenReceiptText(text.replace("Transaction status: SUCCESS", ""))).toThrow(
      ReceiptFormatError,
    );
  });
});

describe("Zemen adapter", () => {
  const adapter = createZemenAdapter();

  it("reports the 404 'Transaction not found.' and expired links as not found", async () => {
    for (const name of ["not-found.json", "expired.json"]) {
      await expect(adapter.parseResponse(answer(fixture(name), 404), target)).resolves.toEqual({
        kind: "not_found",
      });
    }
  });

  it("reads a PDF answer", async () => {
    const pdf = await renderPdf((doc) => {
      doc.text("Date: 29-Jun-2025, 10:55:59 am");
      doc.text("Transaction status: SUCCESS");
      doc.text("Settled Amount ETB 1,600.00");
    });
    await expect(adapter.parseResponse(answer(pdf, 200, "application/pdf"), target)).resolves.toMatchObject({
      kind: "found",
      receipt: { amount: 1600, status: "completed", transactionDate: "2025-06-29T10:55:59+03:00" },
      // No "Reference No:" on this receipt: it is known by its token.
      reference: TOKEN,
    });
  });

  it("reads a PDF whose %PDF- header does not open the body (PDF readers allow 1024 bytes before it)", async () => {
    const pdf = await renderPdf((doc) => {
      doc.text("Date: 29-Jun-2025, 10:55:59 am");
      doc.text("Transaction status: SUCCESS");
      doc.text("Settled Amount ETB 1,600.00");
    });
    const padded = Buffer.concat([Buffer.from("\r\n"), pdf]);
    await expect(
      adapter.parseResponse(answer(padded, 200, "application/pdf"), target),
    ).resolves.toMatchObject({ kind: "found", receipt: { amount: 1600 } });
  });

  it("throws ReceiptFormatError for other answers and BankUnavailableError for 5xx", async () => {
    for (const response of [
      answer("<html>Not Found</html>", 404, "text/html"),
      answer("<html>ok</html>", 200, "text/html"),
      answer("%PDF-1.4 truncated", 200, "application/pdf"),
    ]) {
      await expect(adapter.parseResponse(response, target)).rejects.toBeInstanceOf(ReceiptFormatError);
    }
    await expect(
      adapter.parseResponse(answer("Bad Gateway", 502, "text/html"), target),
    ).rejects.toBeInstanceOf(BankUnavailableError);
  });

  it("looks up by the share-link token, also when the token is given as the transaction number", () => {
    const bare = { transactionNumber: TOKEN, account: null, token: null };
    expect(adapter.validate(bare)).toBeNull();
    expect(adapter.buildRequest(bare).url).toBe(`https://share.zemenbank.com/rt/${TOKEN}/pdf`);
    const request = adapter.buildRequest(target);
    expect(request.url).toBe(`https://share.zemenbank.com/rt/${TOKEN}/pdf`);
    expect(request.headers.Accept).toContain("application/pdf");
    expect(request.headers["User-Agent"]).toMatch(/^Mozilla\/5\.0/);
  });

  it("asks for the share link when given a bare reference", () => {
    expect(adapter.validate({ transactionNumber: "108ATWR2520600HM", account: null, token: null })).toEqual({
      field: "transaction_number",
      message: expect.stringContaining("share link"),
    });
    expect(adapter.validate({ transactionNumber: "x", account: null, token: "x" })).toMatchObject({
      field: "receipt_url",
    });
  });

  it("keeps the token's case and uses the PDF timeout of banks.md", () => {
    expect(adapter.normalizeReference(` ${TOKEN} `)).toBe(TOKEN);
    expect(adapter.network).toMatchObject({ timeoutMs: 30_000, retries: 2, insecureTlsOrigins: [] });
    expect(adapter.origins).toEqual(["share.zemenbank.com:443"]);
  });
});

describe("Zemen: the reference a receipt counts as used under", () => {
  const adapter = createZemenAdapter();

  it("is the receipt's Reference No:, glued to its label or not", () => {
    expect(readZemenReceiptText(fixture("table.txt")).reference).toBe("108ATWR2520600HM");
    expect(readZemenReceiptText(fixture("glued.txt")).reference).toBe("108ATWR2518000QK");
    expect(readZemenReceiptText(fixture("no-settled.txt")).reference).toBe("");
  });

  it("reports the Reference No: of the answer, not the share token", async () => {
    const pdf = await renderPdf((doc) => {
      doc.text("Date: 29-Jun-2025, 10:55:59 am");
      doc.text("Reference No: 108ATWR2520600HM");
      doc.text("Transaction status: SUCCESS");
      doc.text("Settled Amount ETB 1,600.00");
    });
    await expect(adapter.parseResponse(answer(pdf, 200, "application/pdf"), target)).resolves.toMatchObject({
      kind: "found",
      reference: "108ATWR2520600HM",
    });
  });
});
