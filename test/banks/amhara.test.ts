import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createAmharaAdapter } from "../../src/banks/amhara/adapter.js";
import { simulatedAmhara } from "../../src/banks/amhara/imitation.js";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import type { BankHttpClient } from "../../src/banks/http.js";
import { lookupAtBank } from "../../src/banks/lookup.js";
import type { BankResponse, LookupTarget } from "../../src/banks/types.js";
import { describeBankContract } from "./contract.js";

describeBankContract({
  adapter: (network) => createAmharaAdapter({ network }),
  bank: simulatedAmhara,
  shareUrls: [
    {
      url: "https://receipt.amharabank.com.et/?trx=FT262507XG9T",
      expected: { transactionNumber: "FT262507XG9T", accountNumber: null, token: null },
    },
    {
      url: "https://receipt.amharabank.com.et?trx=ft262507xg9t",
      expected: { transactionNumber: "FT262507XG9T", accountNumber: null, token: null },
    },
    {
      url: "https://transaction.amharabank.com.et/FT26248K7Q1P",
      expected: { transactionNumber: "FT26248K7Q1P", accountNumber: null, token: null },
    },
    {
      url: "https://transaction.amharabank.com.et:443/FT26248K7Q1P/",
      expected: { transactionNumber: "FT26248K7Q1P", accountNumber: null, token: null },
    },
    {
      url: "https://receipt.amharabank.com.et/?TRX=FT262507XG9T",
      expected: { transactionNumber: "FT262507XG9T", accountNumber: null, token: null },
    },
  ],
  foreignUrls: [
    "https://evil.example/?trx=FT262507XG9T",
    "https://amharabank.com.et/?trx=FT262507XG9T",
    "https://receipt.amharabank.com.et/",
    "https://receipt.amharabank.com.et/receipt?trx=FT262507XG9T",
    "https://receipt.amharabank.com.et/?id=FT262507XG9T",
    "https://transaction.amharabank.com.et/",
    "https://transaction.amharabank.com.et/api/FT262507XG9T",
    "https://cs.bankofabyssinia.com/slip/?trx=FT262507XG9T12345",
  ],
  invalidTargets: [
    { transactionNumber: "", account: null, token: null },
    { transactionNumber: "FT2625", account: null, token: null },
    { transactionNumber: "TT262507XG9T", account: null, token: null },
    { transactionNumber: "FT2625O7XG9T", account: null, token: null },
    { transactionNumber: "FT262507XG9T1", account: null, token: null },
  ],
});

const adapter = createAmharaAdapter();
const fixture = (name: string) => readFileSync(new URL(`../fixtures/banks/amhara/${name}`, import.meta.url));
const target = (transactionNumber: string): LookupTarget => ({
  transactionNumber,
  account: null,
  token: null,
});
const answer = (status: number, body: string | Buffer, type = "application/json"): BankResponse => ({
  status,
  headers: { "content-type": type },
  body: Buffer.from(body),
});
const found = (data: Record<string, unknown>, reference = "FT262507XG9T") =>
  adapter.parseResponse(answer(200, JSON.stringify({ status: true, data })), target(reference));

const OUTGOING = JSON.parse(fixture("outgoing-ips.json").toString()).data as Record<string, unknown>;

describe("amhara adapter", () => {
  it("reads an outgoing transfer: debitor*/debit* pay, receiverName/reveiverAccount receive", async () => {
    await expect(
      adapter.parseResponse(answer(200, fixture("outgoing-ips.json")), target("FT262507XG9T")),
    ).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        amount: 5000,
        currency: "ETB",
        transactionDate: "2026-09-06T09:08:00+03:00",
        payerName: "Dawit Mekonnen Bekele",
        payerAccount: "9900050363768",
        receiverName: "Miss Hana Girma Tadesse",
        receiverAccount: "1000217529647",
        description: "IPS Outgoing Txn",
      },
      reference: "FT262507XG9T",
    });
  });

  it("reads an incoming transfer: sendor* pay, creditorName/creditAccountId receive", async () => {
    await expect(
      adapter.parseResponse(answer(200, fixture("incoming-ips.json")), target("FT26248K7Q1P")),
    ).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        amount: 5000,
        currency: "ETB",
        transactionDate: "2026-09-05T17:14:00+03:00",
        payerName: "Yonas Abebe Wolde",
        payerAccount: "1000341187205",
        receiverName: "Dawit Mekonnen Bekele",
        receiverAccount: "9900050363768",
        description: "IPS Incoming Txn",
      },
      reference: "FT26248K7Q1P",
    });
  });

  it.each([
    ["MAT", "completed"],
    ["Auth", "completed"],
    ["AUTH", "completed"],
    ["INAU", "inau"],
    ["RET", "ret"],
  ])("maps status %s to %s", async (status, expected) => {
    const outcome = await found({ ...OUTGOING, status });
    expect(outcome.kind === "found" && outcome.receipt.status).toBe(expected);
  });

  it("uses bookingDate (midnight, Addis) when dateTime is empty or missing", async () => {
    for (const dateTime of ["", undefined]) {
      const outcome = await found({ ...OUTGOING, dateTime });
      expect(outcome.kind === "found" && outcome.receipt.transactionDate).toBe("2026-09-07T00:00:00+03:00");
    }
  });

  it("falls back to totalAmount only when amount is missing and no fee is shown, and accepts numbers", async () => {
    const { amount: _omitted, ...withoutAmount } = OUTGOING;
    const feeFree = { ...withoutAmount, netChargeAmount: "ETB0", drChargeAmount: "", taxAmount: "0" };
    const total = await found({ ...feeFree, totalAmount: "ETB1,200.00" });
    expect(total.kind === "found" && total.receipt.amount).toBe(1200);
    const numeric = await found({ ...OUTGOING, amount: 99.5 });
    expect(numeric.kind === "found" && numeric.receipt.amount).toBe(99.5);
  });

  it("never takes totalAmount when fees show: it is the amount plus fees (banks.md §1.5)", async () => {
    // The outgoing record: totalAmount ETB5036.00 = amount 5000 + 30 + 1.50 + 4.50 of charges.
    const { amount: _omitted, ...withoutAmount } = OUTGOING;
    await expect(found(withoutAmount)).rejects.toBeInstanceOf(ReceiptFormatError);
  });

  it("reads a body opening with a byte-order mark, and status written as a string", async () => {
    const record = JSON.stringify({ status: true, data: OUTGOING });
    await expect(
      adapter.parseResponse(answer(200, `\uFEFF${record}`), target("FT262507XG9T")),
    ).resolves.toMatchObject({ kind: "found", receipt: { amount: 5000 } });
    const quoted = JSON.stringify({ status: "true", data: OUTGOING });
    await expect(adapter.parseResponse(answer(200, quoted), target("FT262507XG9T"))).resolves.toMatchObject({
      kind: "found",
    });
    for (const miss of ['{"status":"false","message":"x"}', '\uFEFF{"status":false,"message":"x"}']) {
      await expect(adapter.parseResponse(answer(500, miss), target("FT26250ZZ9QX"))).resolves.toEqual({
        kind: "not_found",
      });
    }
  });

  it("treats a missing currencyId as ETB and the reference case-insensitively", async () => {
    const { currencyId: _omitted, ...rest } = OUTGOING;
    const outcome = await found({ ...rest, transactionReference: "ft262507xg9t" });
    expect(outcome.kind === "found" && outcome.receipt.currency).toBe("ETB");
  });

  it("reads the bank's HTTP 500 {status:false} as not found", async () => {
    await expect(
      adapter.parseResponse(answer(500, fixture("not-found.json")), target("FT26250ZZ9QX")),
    ).resolves.toEqual({ kind: "not_found" });
    await expect(
      adapter.parseResponse(answer(200, '{"status":false}'), target("FT26250ZZ9QX")),
    ).resolves.toEqual({
      kind: "not_found",
    });
    await expect(
      adapter.parseResponse(answer(404, "Cannot GET /x", "text/html"), target("FT26250ZZ9QX")),
    ).resolves.toEqual({ kind: "not_found" });
  });

  it("asks the bank once for a 500 {status:false} miss, never retrying it", async () => {
    let calls = 0;
    const client: BankHttpClient = {
      async send() {
        calls++;
        return answer(500, fixture("not-found.json"));
      },
      async close() {},
    };
    await expect(
      lookupAtBank(adapter, target("FT26250ZZ9QX"), client, { sleep: async () => {} }),
    ).resolves.toEqual({
      kind: "not_found",
    });
    expect(calls).toBe(1);
  });

  it("reports other 5xx answers as server_error", async () => {
    for (const [status, body] of [
      [500, "<html>Internal Server Error</html>"],
      [502, "Bad Gateway"],
      [500, '{"status":true}'],
    ] as const) {
      const error = await adapter.parseResponse(answer(status, body), target("FT262507XG9T")).catch((e) => e);
      expect(error).toBeInstanceOf(BankUnavailableError);
      expect((error as BankUnavailableError).reason).toBe("server_error");
    }
  });

  it.each([
    ["garbage", answer(200, "~~ not json ~~")],
    ["a 403", answer(403, "Forbidden", "text/html")],
    ["no data", answer(200, '{"status":true}')],
    ["data that is a list", answer(200, '{"status":true,"data":[]}')],
  ])("rejects %s with ReceiptFormatError", async (_name, response) => {
    await expect(adapter.parseResponse(response, target("FT262507XG9T"))).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
  });

  it.each([
    ["no transactionReference", { transactionReference: "" }],
    ["another transaction", { transactionReference: "FT26250ZZ9QX" }],
    ["no amount", { amount: "", totalAmount: undefined }],
    ["no date", { dateTime: "", bookingDate: "" }],
    ["an impossible date", { dateTime: "2613451299", bookingDate: "2026" }],
  ])("rejects a record with %s rather than inventing it", async (_name, change) => {
    await expect(found({ ...OUTGOING, ...change })).rejects.toBeInstanceOf(ReceiptFormatError);
  });

  it("builds a GET of the transaction API with browser-like headers", () => {
    const request = adapter.buildRequest(target(adapter.normalizeReference(" ft26248k7q1p ")));
    expect(request).toMatchObject({
      url: "https://transaction.amharabank.com.et/FT26248K7Q1P",
      method: "GET",
    });
    expect(request.headers["User-Agent"]).toMatch(/^Mozilla\/5\.0/);
    expect(request.headers.Accept).toContain("application/json");
  });

  it("validates FT + YYDDD + 5 letters/digits after uppercasing", () => {
    expect(adapter.validate(target(adapter.normalizeReference("ft26248k7q1p")))).toBeNull();
    expect(adapter.validate(target("FT26248K7Q1"))).toEqual({
      field: "transaction_number",
      message: expect.stringContaining("invalid for Amhara Bank"),
    });
    expect(adapter.validate(target("  "))).toMatchObject({ field: "transaction_number" });
  });
});

describe("amhara: the reference a receipt counts as used under", () => {
  it("is the record's transactionReference, which must be the one asked for", async () => {
    await expect(found({ ...OUTGOING, transactionReference: "ft262507xg9t" })).resolves.toMatchObject({
      reference: "FT262507XG9T",
    });
    await expect(found({ ...OUTGOING, transactionReference: "FT26250ZZ9QX" })).rejects.toThrow(
      /answered with another transaction/,
    );
  });
});
