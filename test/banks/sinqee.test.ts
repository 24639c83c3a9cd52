import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import { createSinqeeAdapter } from "../../src/banks/sinqee/adapter.js";
import { simulatedSinqee } from "../../src/banks/sinqee/imitation.js";
import { parseReceiptDate } from "../../src/banks/sinqee/parse.js";
import type { BankResponse, LookupTarget, Receipt } from "../../src/banks/types.js";
import { describeBankContract } from "./contract.js";

describeBankContract({
  adapter: (network) => createSinqeeAdapter({ network }),
  bank: simulatedSinqee,
  shareUrls: [
    {
      url: "https://siinqeebank.com/receipt/FT262507XG9T",
      expected: { transactionNumber: "FT262507XG9T", accountNumber: null, token: null },
    },
    {
      url: "https://siinqeebank.com/receipt/ft262507xg9t/",
      expected: { transactionNumber: "FT262507XG9T", accountNumber: null, token: null },
    },
    {
      url: "https://receipt.ebirr.com/siinqee/FT26248K7Q1P",
      expected: { transactionNumber: "FT26248K7Q1P", accountNumber: null, token: null },
    },
    {
      url: "https://siinqeebank.com/Receipt/FT262507XG9T",
      expected: { transactionNumber: "FT262507XG9T", accountNumber: null, token: null },
    },
    {
      // docs/banks.md §2.9: the eBirr token's shape is unknown; it is passed on as printed.
      url: "https://receipt.ebirr.com/siinqee/6aF3kQ9zT2",
      expected: { transactionNumber: "6aF3kQ9zT2", accountNumber: null, token: "6aF3kQ9zT2" },
    },
  ],
  foreignUrls: [
    "https://evil.example/receipt/FT262507XG9T",
    "https://siinqeebank.com/",
    "https://siinqeebank.com/receipts/FT262507XG9T",
    "https://siinqeebank.com/receipt/FT262507XG9T/pdf",
    "https://receipt.ebirr.com/coopay/FT262507XG9T",
    "https://receipt.ebirr.com/FT262507XG9T",
    "https://siinqeebank.com.et/receipt/FT262507XG9T",
  ],
  invalidTargets: [
    { transactionNumber: "", account: null, token: null },
    { transactionNumber: "FT26", account: null, token: null },
    { transactionNumber: "FT262507-XG9T", account: null, token: null },
    { transactionNumber: "<script>", account: null, token: null },
  ],
});

const adapter = createSinqeeAdapter();
const fixture = (name: string) => readFileSync(new URL(`../fixtures/banks/sinqee/${name}`, import.meta.url));
const target = (transactionNumber: string): LookupTarget => ({
  transactionNumber,
  account: null,
  token: null,
});
const page = (body: string | Buffer, status = 200, type = "text/html; charset=utf-8"): BankResponse => ({
  status,
  headers: { "content-type": type },
  body: Buffer.from(body),
});
const receiptOf = async (html: string | Buffer, reference: string): Promise<Receipt> => {
  const outcome = await adapter.parseResponse(page(html), target(reference));
  if (outcome.kind !== "found") throw new Error("expected a receipt");
  return outcome.receipt;
};
const rows = (pairs: Record<string, string>) =>
  `<table>${Object.entries(pairs)
    .map(([label, value]) => `<tr><td>${label}</td><td>${value}</td></tr>`)
    .join("")}</table>`;
const BASE = { Reference: "FT262507XG9T", Amount: "ETB 100.00", Date: "07/09/2026 10:42" };

describe("sinqee adapter: generic receipt layouts", () => {
  it("reads a label/value table and prefers the transferred amount over totals", async () => {
    await expect(receiptOf(fixture("table.html"), "FT262507XG9T")).resolves.toEqual({
      status: "completed",
      amount: 5000,
      currency: "ETB",
      transactionDate: "2026-09-07T10:42:15+03:00",
      payerName: "GEMECHU TOLESA DIRIBA",
      payerAccount: "1030****7781",
      receiverName: "CHALTU BEKELE GUTEMA",
      receiverAccount: "1030****2146",
      description: "House rent & utilities",
    });
  });

  it("reads <strong>Label:</strong> value lines; no status row means a posted receipt", async () => {
    await expect(receiptOf(fixture("strong.html"), "FT26248K7Q1P")).resolves.toEqual({
      status: "completed",
      amount: 1250,
      currency: "ETB",
      transactionDate: "2026-09-05T17:14:00+03:00",
      payerName: "Lensa Fikadu Gemeda",
      payerAccount: "1020***4521",
      receiverName: "Abdi Kedir Mohammed",
      receiverAccount: "1000198834417",
      description: "Coffee beans order 14",
    });
  });

  it("reads a dl/dt/dd list with debit/credit labels", async () => {
    await expect(receiptOf(fixture("dl.html"), "FT26301B7KQ2")).resolves.toEqual({
      status: "completed",
      transactionType: "Fund Transfer",
      amount: 300,
      currency: "ETB",
      transactionDate: "2026-10-28T08:05:33+03:00",
      payerName: "Tolera Gudeta Hirpa",
      payerAccount: "1040000917325",
      receiverName: "Obse Trading PLC",
      receiverAccount: "1040000255018",
      description: null,
    });
  });

  it("reads labels and values in sibling blocks and keeps a non-success status", async () => {
    await expect(receiptOf(fixture("divs.html"), "FT26250A1B2C")).resolves.toEqual({
      status: "pending",
      amount: 10000,
      currency: "ETB",
      transactionDate: "2026-09-07T09:15:02+03:00",
      payerName: "Bontu Lemma Dhaba",
      payerAccount: "",
      receiverName: "Jiregna Fayisa Tola",
      receiverAccount: "",
      description: null,
    });
  });

  it("reads a minified page whose <title> runs into the first label", async () => {
    const minified = (name: string) =>
      fixture(name)
        .toString("utf8")
        .replace(/<html lang="en">/, '<html lang="en"><head><title>Receipt</title></head>')
        .replace(/>\s+</g, "><");
    await expect(receiptOf(minified("divs.html"), "FT26250A1B2C")).resolves.toMatchObject({
      amount: 10000,
      payerName: "Bontu Lemma Dhaba",
    });
    const lines =
      "<html><head><title>Siinqee Bank</title></head><body>Reference: FT262507XG9T<br>Amount: 1,000.00<br>Date: 07/09/2026</body></html>";
    await expect(receiptOf(lines, "FT262507XG9T")).resolves.toMatchObject({ amount: 1000 });
  });

  it("reads plain 'Label: value' text", async () => {
    const html =
      "<pre>Transaction Ref: FT262507XG9T\nAmount Transferred: 2,500 ETB\nDate: 2026-09-07 14:05:00\nFrom: A B C</pre>";
    const receipt = await receiptOf(html.replaceAll("\n", "<br>"), "FT262507XG9T");
    expect(receipt).toMatchObject({
      amount: 2500,
      transactionDate: "2026-09-07T14:05:00+03:00",
      payerName: "A B C",
    });
  });

  it.each([
    ["Success", "completed"],
    ["SUCCESSFUL", "completed"],
    ["Transaction Completed", "completed"],
    ["Failed", "failed"],
    ["Not Successful", "not successful"],
    ["Reversed", "reversed"],
  ])("maps status %s to %s", async (status, expected) => {
    const receipt = await receiptOf(rows({ ...BASE, Status: status }), "FT262507XG9T");
    expect(receipt.status).toBe(expected);
  });

  it.each([
    ["no reference", { Reference: "" }],
    ["another reference", { Reference: "FT26250ZZ9QX" }],
    ["no amount", { Amount: "" }],
    ["only a total with fees", { Amount: "", "Total Amount": "ETB 110.00" }],
    ["no date", { Date: "" }],
    ["an unreadable date", { Date: "soon" }],
  ])("rejects a page with %s rather than inventing it", async (_name, change) => {
    const html = rows(Object.fromEntries(Object.entries({ ...BASE, ...change }).filter(([, v]) => v)));
    await expect(adapter.parseResponse(page(html), target("FT262507XG9T"))).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
  });
});

describe("sinqee adapter: answers", () => {
  it("reads HTTP 404 and the eBirr-style 'Not Found Page' as not found", async () => {
    const misses = [
      page(fixture("cannot-get.txt"), 404, "text/plain; charset=utf-8"),
      page(fixture("not-found-page.html")),
      page("<html><body><p>Receipt not found.</p></body></html>"),
    ];
    for (const response of misses) {
      await expect(adapter.parseResponse(response, target("FT262507XG9T"))).resolves.toEqual({
        kind: "not_found",
      });
    }
  });

  it("reports 5xx as server_error and other answers as unreadable", async () => {
    const error = await adapter.parseResponse(page("busy", 502), target("FT262507XG9T")).catch((e) => e);
    expect(error).toBeInstanceOf(BankUnavailableError);
    expect((error as BankUnavailableError).reason).toBe("server_error");
    for (const response of [
      page("Forbidden", 403),
      page(rows(BASE), 200, "application/json"),
      page("~~ garbage ~~"),
    ]) {
      await expect(adapter.parseResponse(response, target("FT262507XG9T"))).rejects.toBeInstanceOf(
        ReceiptFormatError,
      );
    }
  });

  it("looks references up on the bank's own host, never on the dead eBirr route", () => {
    const link = adapter.parseShareUrl(new URL("https://receipt.ebirr.com/siinqee/ft26248k7q1p"));
    expect(link?.transactionNumber).toBe("FT26248K7Q1P");
    const request = adapter.buildRequest(target(link?.transactionNumber ?? ""));
    expect(request).toMatchObject({ url: "https://siinqeebank.com/receipt/FT26248K7Q1P", method: "GET" });
    expect(request.headers["User-Agent"]).toMatch(/^Mozilla\/5\.0/);
  });

  it("uppercases FT references and keeps link tokens as printed (banks.md §2.9: shape unknown)", () => {
    expect(adapter.normalizeReference(" ft262507xg9t ")).toBe("FT262507XG9T");
    expect(adapter.normalizeReference(" 6aF3kQ9zT2 ")).toBe("6aF3kQ9zT2");
    expect(adapter.validate(target("FT262507XG9T"))).toBeNull();
    expect(
      adapter.validate({ transactionNumber: "6aF3kQ9zT2", account: null, token: "6aF3kQ9zT2" }),
    ).toBeNull();
    for (const typed of ["6aF3kQ9zT2", "a-b"]) {
      expect(adapter.validate(target(typed))).toEqual({
        field: "transaction_number",
        message: expect.stringContaining("invalid for Siinqee Bank"),
      });
    }
  });

  it("is no candidate for bare references of other banks' shapes (banks.md §1.2)", () => {
    for (const typed of ["DFH51OFIED", "822LTWS2622600WJ", "UGO4D2CODA", "-2KDL95Z0NR-4U61O6"]) {
      expect(adapter.validate(target(adapter.normalizeReference(typed))), typed).not.toBeNull();
    }
  });

  it("looks an eBirr token up as printed and finds the page showing it in any case", async () => {
    const link = adapter.parseShareUrl(new URL("https://receipt.ebirr.com/siinqee/6aF3kQ9zT2"));
    const token = link?.token ?? "";
    expect(adapter.buildRequest({ transactionNumber: token, account: null, token }).url).toBe(
      "https://siinqeebank.com/receipt/6aF3kQ9zT2",
    );
    const html = rows({ ...BASE, Reference: "6AF3KQ9ZT2" });
    await expect(adapter.parseResponse(page(html), target(token))).resolves.toMatchObject({
      kind: "found",
      reference: "6aF3kQ9zT2",
    });
  });
});

describe("sinqee receipt dates", () => {
  it.each([
    ["07/09/2026 10:42:15", "2026-09-07T10:42:15+03:00"],
    ["09/25/2026 4:05 PM", "2026-09-25T16:05:00+03:00"],
    ["07/09/26", "2026-09-07T00:00:00+03:00"],
    ["18-07-2025 19:58:20", "2025-07-18T19:58:20+03:00"],
    ["2026-09-07 10:42", "2026-09-07T10:42:00+03:00"],
    ["2026-09-07T10:42:15", "2026-09-07T10:42:15+03:00"],
    ["2026-05-19 03:05:53 PM", "2026-05-19T15:05:53+03:00"],
    ["29-Jun-2025, 10:55:59 am", "2025-06-29T10:55:59+03:00"],
    ["Jun 19, 2026, 12:45 AM", "2026-06-19T00:45:00+03:00"],
    ["Sept 7, 2026", "2026-09-07T00:00:00+03:00"],
    ["7 September 2026 at 9:15 a.m.", "2026-09-07T09:15:00+03:00"],
    ["Mon, Sep 7 2026 10:00 (EAT)", "2026-09-07T10:00:00+03:00"],
    ["2026-09-07T07:42:15Z", "2026-09-07T07:42:15Z"],
    ["2026-09-07T10:42:15+03:00", "2026-09-07T10:42:15+03:00"],
    ["2026-09-07 07:42:15 +0000", "2026-09-07T10:42:15+03:00"],
  ])("reads %s", (raw, iso) => {
    expect(parseReceiptDate(raw)).toBe(iso);
  });

  it.each(["soon", "32/13/2026", "2026-13-01", "07/09/2026 25:00", ""])("refuses %s", (raw) => {
    expect(parseReceiptDate(raw)).toBeNull();
  });
});

describe("sinqee: the reference a receipt counts as used under", () => {
  it("is the reference asked for, once the page shows it", async () => {
    const html = rows({ ...BASE, Reference: "ft262507xg9t" });
    await expect(adapter.parseResponse(page(html), target("FT262507XG9T"))).resolves.toMatchObject({
      kind: "found",
      reference: "FT262507XG9T",
    });
  });

  it("names a page of another transaction as such", async () => {
    const html = rows({ ...BASE, Reference: "FT26250ZZ9QX" });
    await expect(adapter.parseResponse(page(html), target("FT262507XG9T"))).rejects.toThrow(
      /answered with another transaction/,
    );
  });
});
