import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createDashenAdapter, parseDashenResponse } from "../../src/banks/dashen/adapter.js";
import { simulatedDashen } from "../../src/banks/dashen/imitation.js";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import { createBankAdapters } from "../../src/banks/registry.js";
import type { BankResponse } from "../../src/banks/types.js";
import { parseReceiptUrl } from "../../src/engine/receipt-url.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { describeBankContract } from "./contract.js";

const share = (transactionNumber: string) => ({ transactionNumber, accountNumber: null, token: null });

describeBankContract({
  adapter: (network) => createDashenAdapter({ network }),
  bank: simulatedDashen,
  shareUrls: [
    {
      url: "https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
      expected: share("822LTWS2622600WJ"),
    },
    {
      url: "https://receipts.dashenbanksc.com/receipt/822ltws2622600wj/",
      expected: share("822LTWS2622600WJ"),
    },
    {
      url: "https://receipt.dashensuperapp.com/receipt/110IPSS2616900WO",
      expected: share("110IPSS2616900WO"),
    },
    {
      url: "https://api.dashensuperapp.com/receipts/Within-Dashen-Transfer-B22WDTI261620001.pdf",
      expected: share("B22WDTI261620001"),
    },
    {
      url: "https://api.dashensuperapp.com/receipts/Other-Bank-Transfer-641OBTS2518100WH.pdf",
      expected: share("641OBTS2518100WH"),
    },
  ],
  foreignUrls: [
    "https://evil.example/receipt/822LTWS2622600WJ",
    "https://receipts.dashenbanksc.com/other/822LTWS2622600WJ",
    "https://receipts.dashenbanksc.com/receipt/",
    "https://api.dashensuperapp.com/receipts/B22WDTI261620001",
    "https://dashenbanksc.com/receipt/822LTWS2622600WJ",
  ],
  invalidTargets: [
    { transactionNumber: "", account: null, token: null },
    { transactionNumber: "OBTI28455679126320660525", account: null, token: null },
    { transactionNumber: "WDTI5921680061225851717", account: null, token: null },
    { transactionNumber: "D250610001234", account: null, token: null },
    { transactionNumber: "FT26140P01YB", account: null, token: null },
  ],
});

const adapter = createDashenAdapter();
const fixture = (name: string) => readFileSync(new URL(`../fixtures/banks/dashen/${name}`, import.meta.url));
const lookup = (transactionNumber: string) => ({ transactionNumber, account: null, token: null });
const answer = (status: number, body: string | Buffer, type = "text/html"): BankResponse => ({
  status,
  headers: { "content-type": type },
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

describe("dashen adapter", () => {
  it("asks for the 16-character FT Ref when given the long Transaction Ref", () => {
    const problem = adapter.validate({
      transactionNumber: "OBTI28455679126320660525",
      account: null,
      token: null,
    });
    expect(problem?.field).toBe("transaction_number");
    expect(problem?.message).toMatch(/16-character FT Ref/);
  });

  it("accepts every sample reference shape of banks.md, spaces and case forgiven", () => {
    for (const ref of [
      "B22WDTI261620001",
      "d31obti251720001",
      "045WDTS2514600WM",
      "387ETAP2522000WK",
      "132 WDTS 26196000H",
    ]) {
      const transactionNumber = adapter.normalizeReference(ref);
      expect(adapter.validate({ transactionNumber, account: null, token: null }), ref).toBeNull();
    }
  });

  // check.et's API normalises Dashen references, leading zeros and dashes (docs/banks.md §3).
  it("restores the leading zeros a spreadsheet drops from a numeric branch code, and drops dashes", () => {
    expect(adapter.normalizeReference("45WDTS2514600WM")).toBe("045WDTS2514600WM");
    expect(adapter.normalizeReference("45-WDTS-25146-00WM")).toBe("045WDTS2514600WM");
    expect(adapter.normalizeReference("5WDTS2514600WM")).toBe("005WDTS2514600WM");
    const transactionNumber = adapter.normalizeReference("45WDTS2514600WM");
    expect(adapter.validate({ transactionNumber, account: null, token: null })).toBeNull();
    expect(adapter.buildRequest({ transactionNumber, account: null, token: null }).url).toBe(
      "https://receipts.dashenbanksc.com/receipt/045WDTS2514600WM",
    );
    // A branch code with a letter (B22, D31) is never padded; a short one stays refused.
    expect(adapter.normalizeReference("B2WDTI261620001")).toBe("B2WDTI261620001");
    expect(
      adapter.validate({ transactionNumber: "B2WDTI261620001", account: null, token: null }),
    ).not.toBeNull();
  });

  it("always looks up at the new receipt host, whatever link the reference came from", () => {
    const request = adapter.buildRequest({
      transactionNumber: "110IPSS2616900WO",
      account: null,
      token: null,
    });
    expect(request.url).toBe("https://receipts.dashenbanksc.com/receipt/110IPSS2616900WO");
    expect(request.method).toBe("GET");
    expect(request.headers["User-Agent"]).toMatch(/^Mozilla\//);
  });

  it("trims punctuation an SMS sentence leaves on the link", () => {
    const { link } = parseReceiptUrl(
      "https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ.",
      createBankAdapters(),
    );
    expect(link).toEqual(share("822LTWS2622600WJ"));
  });
});

describe("dashen receipt parsing", () => {
  it("reads the current HTML template (div rows, wallet receiver by phone, label words inside a value)", async () => {
    await expect(
      parseDashenResponse(answer(200, fixture("current-wallet.html")), lookup("132WDTS26196000H")),
    ).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        transactionType: "Dashen to Telebirr Transfer",
        amount: 10,
        currency: "ETB",
        transactionDate: "2026-07-15T17:43:10+03:00",
        payerName: "LIDYA ABERA",
        payerAccount: "0512******733",
        receiverName: "NATNAEL BIRHANU",
        receiverAccount: "251922334455",
        description: "Total for May & June",
      },
      reference: "132WDTS26196000H",
    });
  });

  // The page is "<strong>Label:</strong> value" (docs/banks.md §2.3); other block markup must not glue a
  // label to its value.
  it("reads labels and values in definition lists and label elements", async () => {
    const html = [
      "<html><body><dl>",
      "<dt>Sender Name</dt><dd>ABEL TESFAYE</dd>",
      "<dt>Transaction Reference</dt><dd>B22WDTI261620001</dd>",
      "<dt>Transaction Date</dt><dd>Jun 11, 2026, 08:45:50 am</dd>",
      "</dl><div><label>Receiver Name</label><div>BETI ALEMU</div></div>",
      "<table><tr><td>Transaction Amount</td><td>ETB 20,475.00</td></tr></table></body></html>",
    ].join("");
    await expect(parseDashenResponse(answer(200, html), lookup("B22WDTI261620001"))).resolves.toMatchObject({
      kind: "found",
      reference: "B22WDTI261620001",
      receipt: {
        amount: 20475,
        transactionDate: "2026-06-11T08:45:50+03:00",
        payerName: "ABEL TESFAYE",
        receiverName: "BETI ALEMU",
      },
    });
  });

  it("reads the old template labels in their own order, typo included", async () => {
    await expect(
      parseDashenResponse(answer(200, fixture("legacy-template.html")), lookup("D31OBTI251720001")),
    ).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        amount: 2000,
        currency: "ETB",
        transactionDate: "2025-06-21T11:02:19+03:00",
        payerName: "MULUKEN GASHAW",
        payerAccount: "7011******205",
        receiverName: "ZUFAN ADMASU",
        receiverAccount: "1000098765432",
        description: "Loan repayment",
      },
      reference: "D31OBTI251720001",
    });
  });

  it("reads an old-template PDF the same way", async () => {
    const pdf = await renderPdf((doc) => {
      doc.fontSize(14).text("Dashen Bank").fontSize(10);
      doc.text("Sender Name: ABEL TESFAYE");
      doc.text("Sender Account Number: 2912******911");
      doc.text("Receiver Name: MERON ASSEFA");
      doc.text("Receiver Account Number: 5014******208");
      doc.text("Transaction Reference: B22WDTI261620001");
      doc.text("Transaction Date: Jun 11, 2026, 08:45:50 am");
      doc.text("Narrative: rent");
      doc.text("Transaction Amount ETB 20,475.00");
      doc.text("Service Charge ETB 0.00");
      doc.text("Total ETB 20,475.00");
    });
    const outcome = await parseDashenResponse(
      answer(200, pdf, "application/pdf"),
      lookup("B22WDTI261620001"),
    );
    expect(outcome).toMatchObject({
      kind: "found",
      receipt: {
        amount: 20475,
        transactionDate: "2026-06-11T08:45:50+03:00",
        payerName: "ABEL TESFAYE",
        receiverAccount: "5014******208",
        description: "rent",
      },
      reference: "B22WDTI261620001",
    });
  });

  it("maps the HTTP 400 'Transaction not found' JSON to not_found", async () => {
    await expect(
      parseDashenResponse(
        answer(400, fixture("not-found.json"), "application/json"),
        lookup("387ETAP2522000WK"),
      ),
    ).resolves.toEqual({
      kind: "not_found",
    });
  });

  it("treats the old host's 502 as an outage and other answers as unreadable", async () => {
    await expect(
      parseDashenResponse(answer(502, "<h1>502 Bad Gateway</h1>"), lookup("387ETAP2522000WK")),
    ).rejects.toBeInstanceOf(BankUnavailableError);
    await expect(
      parseDashenResponse(
        answer(400, '{"statusCode":400,"message":"Bad Request"}'),
        lookup("387ETAP2522000WK"),
      ),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    await expect(
      parseDashenResponse(answer(200, "<html><body>Maintenance</body></html>"), lookup("387ETAP2522000WK")),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
  });

  it("refuses a receipt without a readable date instead of inventing one", async () => {
    const html =
      "<p><strong>Sender Name:</strong> A</p><table><tr><td>Transaction Amount</td><td>ETB 5.00</td></tr></table>";
    await expect(parseDashenResponse(answer(200, html), lookup("387ETAP2522000WK"))).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
  });
});

describe("dashen: the reference a receipt counts as used under", () => {
  it("is the Transaction Reference (the FT Ref), compared the way references are typed", async () => {
    await expect(
      parseDashenResponse(answer(200, fixture("current-wallet.html")), lookup("132wdts 2619 6000h")),
    ).resolves.toMatchObject({ reference: "132WDTS26196000H" });
  });

  it("refuses a receipt of another transaction, and keeps the requested FT Ref when none is shown", async () => {
    await expect(
      parseDashenResponse(answer(200, fixture("current-wallet.html")), lookup("822LTWS2622600WJ")),
    ).rejects.toThrow(/answered with another transaction/);
    const html =
      "<p><strong>Transaction Date:</strong> Jun 11, 2026, 08:45:50 am</p><table><tr><td>Transaction Amount</td><td>ETB 5.00</td></tr></table>";
    await expect(parseDashenResponse(answer(200, html), lookup("B22WDTI261620001"))).resolves.toMatchObject({
      reference: "B22WDTI261620001",
    });
  });
});
