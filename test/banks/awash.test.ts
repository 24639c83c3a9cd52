import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createAwashAdapter, parseAwashResponse } from "../../src/banks/awash/adapter.js";
import { simulatedAwash } from "../../src/banks/awash/imitation.js";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import type { BankResponse } from "../../src/banks/types.js";
import { describeBankContract } from "./contract.js";

const link = (token: string) => ({ transactionNumber: token, accountNumber: null, token });

describeBankContract({
  adapter: (network) => createAwashAdapter({ network }),
  bank: simulatedAwash,
  shareUrls: [
    { url: "https://awashpay.awashbank.com:8225/-2KDL95Z0NR-4U61O6", expected: link("-2KDL95Z0NR-4U61O6") },
    { url: "https://awashpay.awashbank.com:8225/-2KDL95Z0NR-4U61O6.", expected: link("-2KDL95Z0NR-4U61O6") },
    {
      url: "https://awashpay.awashbank.com:8225/-E41AE0D86FFA-21XYYW),",
      expected: link("-E41AE0D86FFA-21XYYW"),
    },
    {
      url: "https://awashpay.awashbank.com:8225/-E43406CDD679-2CQJIP/",
      expected: link("-E43406CDD679-2CQJIP"),
    },
    { url: "https://AWASHPAY.awashbank.com:8225/-2kdl95z0nr-4u61o6", expected: link("-2kdl95z0nr-4u61o6") },
  ],
  foreignUrls: [
    "https://awashpay.awashbank.com:8225/2KDL95Z0NR-4U61O6",
    "https://awashpay.awashbank.com/-2KDL95Z0NR-4U61O6",
    "https://awashpay.awashbank.com:8225/",
    "https://awashpay.awashbank.com:8225/awashbirrpro/receipts/paper2.css",
    "https://evil.example:8225/-2KDL95Z0NR-4U61O6",
  ],
  invalidTargets: [
    { transactionNumber: "260607112275735", account: null, token: null },
    { transactionNumber: "E3BF28E4B8C1", account: null, token: null },
    { transactionNumber: "2KDL95Z0NR-4U61O6", account: null, token: null },
    { transactionNumber: "", account: null, token: null },
    { transactionNumber: "FT26140P01YB", account: null, token: null },
  ],
});

const adapter = createAwashAdapter();
const fixture = (name: string) => readFileSync(new URL(`../fixtures/banks/awash/${name}`, import.meta.url));
const TOKEN = "-2KDL95Z0NR-4U61O6";
const target = { transactionNumber: TOKEN, account: null, token: TOKEN };
const answer = (status: number, body: string | Buffer): BankResponse => ({
  status,
  headers: { "content-type": "text/html;charset=UTF-8" },
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

describe("awash adapter", () => {
  it("asks for the receipt link when only the transaction id is given", () => {
    const problem = adapter.validate({ transactionNumber: "260607112275735", account: null, token: null });
    expect(problem?.message).toMatch(/receipt link/);
  });

  it("explains a token that lost its leading dash", () => {
    const problem = adapter.validate({ transactionNumber: "2KDL95Z0NR-4U61O6", account: null, token: null });
    expect(problem?.message).toMatch(/leading dash/);
  });

  it("keeps the token's case and dash, trims SMS punctuation, and GETs the link itself", () => {
    const token = adapter.normalizeReference(" -2KCEJ97yc9-4LDPET. ");
    expect(token).toBe("-2KCEJ97yc9-4LDPET");
    const request = adapter.buildRequest({ transactionNumber: token, account: null, token });
    expect(request.url).toBe("https://awashpay.awashbank.com:8225/-2KCEJ97yc9-4LDPET");
    expect(adapter.network.insecureTlsOrigins).toEqual(["awashpay.awashbank.com:8225"]);
  });
});

describe("awash receipt parsing", () => {
  it("reads two-cell rows with the colon glued to the label and a 12-hour time", async () => {
    await expect(parseAwashResponse(answer(200, fixture("two-column.html")), target)).resolves.toEqual({
      kind: "found",
      receipt: {
        status: "completed",
        transactionType: "Send To Bank",
        amount: 12345.5,
        currency: "ETB",
        transactionDate: "2026-03-02T19:05:09+03:00",
        payerName: "ROBEL FIKRE",
        payerAccount: "01320******1100/BANK",
        receiverName: "SARA & SONS TRADING",
        receiverAccount: "01320******4321",
        description: "",
      },
      reference: "260302190512345",
    });
  });

  // What an HTML parser does and a scan of the markup may not: comments with decoy rows, entities (Amharic
  // written as character references), upper-case tags and attributes, cells left open, a ">" in an attribute.
  it("reads a page of odd markup as a browser shows it", async () => {
    const html = `<HTML><BODY>
<TABLE CLASS="info-table" TITLE="customer > company">
<TR><TD>Customer Name<TD>:<TD>&#4661;&#4616;&#4666; BEKELE
<TR><TD>Account No<TD>:<TD>01320******1100/BANK
</TABLE>
<TABLE class="wide info-table">
<!-- <TR><TD>Amount<TD>:<TD>9 ETB -->
<TR><TH>Transaction Date:<TD>2026-03-02 7:05:09 pm
<TR><TD>Amount<TH TITLE="ETB > 0">12,345.50&nbsp;ETB
<TR><TD>Sender Name<TD>:<TD>&#4661;&#4616;&#4666; BEKELE<!-- JR -->
<TR><TD>Receiver Name</TD><TD>:</TD><TD>SARA&rsquo;S &amp; SONS TRADING</TD></TR>
<TR><TD>Transaction ID<TD>:<TD>260302190512345
</TABLE></BODY></HTML>`;
    await expect(parseAwashResponse(answer(200, html), target)).resolves.toMatchObject({
      kind: "found",
      receipt: {
        amount: 12345.5,
        transactionDate: "2026-03-02T19:05:09+03:00",
        payerName: "ስለሺ BEKELE",
        receiverName: "SARA’S & SONS TRADING",
      },
      reference: "260302190512345",
    });
  });

  it("maps the HTTP 200 'Receipt not found' page and the WAF's 403 to not_found", async () => {
    await expect(parseAwashResponse(answer(200, fixture("not-found.html")), target)).resolves.toEqual({
      kind: "not_found",
    });
    await expect(parseAwashResponse(answer(403, "<title>Request Rejected</title>"), target)).resolves.toEqual(
      {
        kind: "not_found",
      },
    );
  });

  it("treats 5xx as an outage and a page without the receipt table as unreadable", async () => {
    await expect(parseAwashResponse(answer(503, "busy"), target)).rejects.toBeInstanceOf(
      BankUnavailableError,
    );
    await expect(
      parseAwashResponse(answer(200, "<html><body>Welcome</body></html>"), target),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
  });

  it("refuses a receipt table without a date", async () => {
    const html = '<table class="info-table"><tr><td>Amount</td><td>:</td><td>10 ETB</td></tr></table>';
    await expect(parseAwashResponse(answer(200, html), target)).rejects.toBeInstanceOf(ReceiptFormatError);
  });
});

describe("awash: the reference a receipt counts as used under", () => {
  it("is the receipt's Transaction ID, whatever token led to it", async () => {
    const other = { transactionNumber: "-2kdl95z0nr-4u61o6", account: null, token: "-2kdl95z0nr-4u61o6" };
    await expect(parseAwashResponse(answer(200, fixture("two-column.html")), other)).resolves.toMatchObject({
      reference: "260302190512345",
    });
  });

  it("is the Transaction ID also when the page prints it outside the transaction table", async () => {
    const html = fixture("two-column.html")
      .toString()
      .replace(/<tr><th>Transaction ID:<\/th>.*<\/tr>/, "")
      .replace(
        "<tr><td>Branch</td>",
        "<tr><td>Transaction ID</td><td>:</td><td>260302190512345</td></tr><tr><td>Branch</td>",
      );
    await expect(parseAwashResponse(answer(200, html), target)).resolves.toMatchObject({
      kind: "found",
      reference: "260302190512345",
    });
  });

  it("is the token itself when the receipt shows no Transaction ID", async () => {
    const html = fixture("two-column.html")
      .toString()
      .replace(/<tr><th>Transaction ID:<\/th>.*<\/tr>/, "");
    await expect(parseAwashResponse(answer(200, html), target)).resolves.toMatchObject({
      kind: "found",
      reference: TOKEN,
    });
  });
});
