import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createBoaAdapter, parseBoaResponse } from "../../src/banks/boa/adapter.js";
import { simulatedBoa } from "../../src/banks/boa/imitation.js";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import type { BankResponse, LookupTarget } from "../../src/banks/types.js";
import { describeBankContract } from "./contract.js";

const slip = (transactionNumber: string, accountNumber: string) => ({
  transactionNumber,
  accountNumber,
  token: null,
});

describeBankContract({
  adapter: (network) => createBoaAdapter({ network }),
  bank: simulatedBoa,
  shareUrls: [
    {
      url: "https://cs.bankofabyssinia.com/slip/?trx=FT26083XJRMH26009",
      expected: slip("FT26083XJRMH", "26009"),
    },
    {
      url: "https://cs.bankofabyssinia.com/slip/?trx=TT26171RW0YG02723",
      expected: slip("TT26171RW0YG", "02723"),
    },
    {
      url: "https://cs.bankofabyssinia.com/slip?trx=ft250889jggh07157.",
      expected: slip("FT250889JGGH", "07157"),
    },
    {
      url: "https://cs.bankofabyssinia.com/api/onlineSlip/getDetails/?id=FT252113TRLT13487",
      expected: slip("FT252113TRLT", "13487"),
    },
    {
      // The slip SPA cuts a trx that repeats its reference after the suffix.
      url: "https://cs.bankofabyssinia.com/slip/?trx=FT26083XJRMH26009FT26083XJRMH",
      expected: slip("FT26083XJRMH", "26009"),
    },
  ],
  foreignUrls: [
    "https://cs.bankofabyssinia.com/cs/?trx=CFT26083XJRMH",
    "https://cs.bankofabyssinia.com/cs/?trx=FT26083XJRMH26009",
    "https://cs.bankofabyssinia.com/slip/",
    "https://cs.bankofabyssinia.com/slip/?trx=FT26083XJRMH",
    "https://cs.bankofabyssinia.com/slip/?id=FT26083XJRMH26009",
    "https://bankofabyssinia.com/slip/?trx=FT26083XJRMH26009",
  ],
  invalidTargets: [
    { transactionNumber: "FT26083XJRMH", account: null, token: null },
    { transactionNumber: "FT26083XJRMH", account: "123", token: null },
    { transactionNumber: "FT26083XJRMH", account: "1****6009", token: null },
    { transactionNumber: "AB26083XJRMH", account: "1026009", token: null },
    { transactionNumber: "FT2608XJRMH", account: "1026009", token: null },
  ],
});

const adapter = createBoaAdapter();
const fixture = (name: string) => readFileSync(new URL(`../fixtures/banks/boa/${name}`, import.meta.url));
const lookup = (transactionNumber: string, account = "1000102723"): LookupTarget => ({
  transactionNumber,
  account,
  token: null,
});
const answer = (status: number, body: string | Buffer): BankResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

describe("boa adapter", () => {
  it("requires the account and explains which digits are used", () => {
    const problem = adapter.validate({ transactionNumber: "FT26083XJRMH", account: null, token: null });
    expect(problem).toEqual({ field: "account_number", message: expect.stringMatching(/last 5 digits/) });
  });

  it("calls the slip API with the reference and the account's last 5 digits, as the slip page does", () => {
    const transactionNumber = adapter.normalizeReference(" ft26083xjrmh ");
    const account = adapter.normalizeAccount("1212 26-009");
    expect(adapter.validate({ transactionNumber, account, token: null })).toBeNull();
    const request = adapter.buildRequest({ transactionNumber, account, token: null });
    expect(request.url).toBe(
      "https://cs.bankofabyssinia.com/api/onlineSlip/getDetails/?id=FT26083XJRMH26009",
    );
    expect(request.headers.Referer).toBe("https://cs.bankofabyssinia.com/slip/");
    expect(request.headers.Origin).toBe("https://cs.bankofabyssinia.com");
    expect(request.headers.Accept).toMatch(/application\/json/);
  });

  it("accepts the 17-character slip id on its own", () => {
    const target = { transactionNumber: "TT26171RW0YG02723", account: null, token: null };
    expect(adapter.validate(target)).toBeNull();
    expect(adapter.buildRequest(target).url).toMatch(/\?id=TT26171RW0YG02723$/);
  });
});

describe("boa slip parsing", () => {
  it("reads the Source/Receiver's key set with the app date format and an ETB-prefixed amount", async () => {
    await expect(
      parseBoaResponse(answer(200, fixture("source-keys.json")), lookup("FT252003JZPP")),
    ).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        transactionType: "Other Bank Transfer",
        amount: 1107.59,
        currency: "ETB",
        transactionDate: "2025-07-19T17:32:13+03:00",
        payerName: "GETNET AYALEW",
        payerAccount: "1******31",
        receiverName: "BETELHEM SISAY",
        receiverAccount: "9******12",
        description: "invoice 44",
      },
      reference: "FT252003JZPP",
    });
  });

  it("reads the Payer's/Beneficiary key set with the short JSON date", async () => {
    await expect(
      parseBoaResponse(answer(200, fixture("payer-keys.json")), lookup("FT26149FW949")),
    ).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        transactionType: "Tuition Fee",
        amount: 9788,
        currency: "ETB",
        transactionDate: "2026-05-29T16:09:00+03:00",
        payerName: "DEREJE MENGIST DEFERSHA",
        payerAccount: "1******76",
        receiverName: "ST. MARY SCHOOL",
        receiverAccount: "3******90",
        description: "ግንቦት-ሰኔ",
      },
      reference: "FT26149FW949",
    });
  });

  it("maps the HTTP 200 'Invalid reference number' row to not_found", async () => {
    await expect(
      parseBoaResponse(answer(200, fixture("invalid-reference.json")), lookup("FT26083XJRMH")),
    ).resolves.toEqual({
      kind: "not_found",
    });
  });

  // docs/banks.md §1.3 gives the miss only as the "Payer's Name" row; what the header then says is unknown.
  it("maps an 'Invalid reference number' row to not_found whatever the header says", async () => {
    for (const header of [{ status: "failed" }, { status: "error" }, undefined]) {
      const body = JSON.stringify({ header, body: [{ "Payer's Name": "Invalid reference number" }] });
      await expect(parseBoaResponse(answer(200, body), lookup("FT26083XJRMH"))).resolves.toEqual({
        kind: "not_found",
      });
    }
  });

  it("reads a slip whose header is missing or spells success in capitals, and a single-object body", async () => {
    const row = {
      "Payer's Name": "DEREJE MENGIST",
      "Transferred Amount": "9788.00",
      "Transaction Date": "29/05/26 16:09",
      "Transaction Reference": "FT26149FW949",
    };
    for (const payload of [
      { body: [row] },
      { header: { status: "Success" }, body: [row] },
      { header: { status: "SUCCESS" }, body: row },
    ]) {
      await expect(
        parseBoaResponse(answer(200, JSON.stringify(payload)), lookup("FT26149FW949")),
      ).resolves.toMatchObject({ kind: "found", reference: "FT26149FW949", receipt: { amount: 9788 } });
    }
  });

  it("never confirms a slip whose header reports a failure", async () => {
    const body = JSON.stringify({
      header: { status: "failed" },
      body: [{ "Transferred Amount": "10", "Transaction Date": "29/05/26 16:09" }],
    });
    await expect(parseBoaResponse(answer(200, body), lookup("FT26149FW949"))).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
  });

  it("reads a JSON answer that starts with a byte-order mark", async () => {
    const body = `\ufeff${fixture("payer-keys.json").toString()}`;
    await expect(parseBoaResponse(answer(200, body), lookup("FT26149FW949"))).resolves.toMatchObject({
      kind: "found",
    });
  });

  it("treats 5xx as an outage and anything but the header/body JSON as unreadable", async () => {
    await expect(parseBoaResponse(answer(500, "{}"), lookup("FT26083XJRMH"))).rejects.toBeInstanceOf(
      BankUnavailableError,
    );
    await expect(
      parseBoaResponse(answer(200, "<html>slip</html>"), lookup("FT26083XJRMH")),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    await expect(
      parseBoaResponse(answer(200, '{"message":"ok"}'), lookup("FT26083XJRMH")),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    const noAmount = JSON.stringify({
      header: { status: "success" },
      body: [{ "Payer's Name": "A", "Transaction Date": "01/09/25 14:30" }],
    });
    await expect(parseBoaResponse(answer(200, noAmount), lookup("FT26083XJRMH"))).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
  });
});

describe("boa: the reference a receipt counts as used under", () => {
  it("is the 12-character Transaction Reference, also when the full slip id was typed", async () => {
    await expect(
      parseBoaResponse(answer(200, fixture("source-keys.json")), lookup("FT252003JZPP12345", "")),
    ).resolves.toMatchObject({ reference: "FT252003JZPP" });
    await expect(
      parseBoaResponse(answer(200, fixture("source-keys.json")), lookup("ft252003jzpp")),
    ).resolves.toMatchObject({ reference: "FT252003JZPP" });
  });

  it("accepts a Transaction Reference shown as the whole 17-character slip id", async () => {
    const shown = fixture("payer-keys.json").toString().replace('"FT26149FW949"', '"FT26149FW94912723"');
    await expect(parseBoaResponse(answer(200, shown), lookup("FT26149FW949"))).resolves.toMatchObject({
      kind: "found",
      reference: "FT26149FW949",
    });
    const other = fixture("payer-keys.json").toString().replace('"FT26149FW949"', '"FT26083XJRMH12723"');
    await expect(parseBoaResponse(answer(200, other), lookup("FT26149FW949"))).rejects.toThrow(
      /answered with another transaction/,
    );
  });

  it("refuses a slip of another transaction, and keeps the requested reference when none is shown", async () => {
    await expect(
      parseBoaResponse(answer(200, fixture("source-keys.json")), lookup("FT26149FW949")),
    ).rejects.toThrow(/answered with another transaction/);
    const unlabelled = fixture("source-keys.json").toString().replace('"Transaction Reference"', '"Ref"');
    await expect(parseBoaResponse(answer(200, unlabelled), lookup("FT26149FW949"))).resolves.toMatchObject({
      reference: "FT26149FW949",
    });
  });
});
