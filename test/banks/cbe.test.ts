import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CBE_APP_ID, CBE_APP_VERSION, createCbeAdapter } from "../../src/banks/cbe/adapter.js";
import { LEGACY_RECEIPTS, renderLegacyPdf, simulatedCbe } from "../../src/banks/cbe/imitation.js";
import { parseCbeJson, parseCbePdfText, readCbeJson, readCbePdfText } from "../../src/banks/cbe/parse.js";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import { type BankHttpClient, createBankHttpClient, parseOriginOverrides } from "../../src/banks/http.js";
import { lookupAtBank } from "../../src/banks/lookup.js";
import type { BankResponse, LookupTarget } from "../../src/banks/types.js";
import { extractPdfText } from "../../src/pdf/text.js";
import { visibleDigits } from "../../src/reading/parse-utils.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import { describeBankContract } from "./contract.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/banks/cbe/${name}`, import.meta.url), "utf8");

const tokenTarget = (token: string): LookupTarget => ({ transactionNumber: token, account: null, token });
const ftTarget: LookupTarget = { transactionNumber: "FT26140P01YB", account: "1000560536171", token: null };

function answer(status: number, body: string | Buffer, contentType = "application/json"): BankResponse {
  return {
    status,
    headers: { "content-type": contentType },
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  };
}

describeBankContract({
  adapter: (network) => createCbeAdapter({ network }),
  bank: simulatedCbe,
  shareUrls: [
    {
      url: "https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL",
      expected: {
        transactionNumber: "v2-hfHCxGvIhvqVMTB7hylL",
        accountNumber: null,
        token: "v2-hfHCxGvIhvqVMTB7hylL",
      },
    },
    {
      url: "https://mbreciept.cbe.com.et/fHCxyV4mg5p",
      expected: { transactionNumber: "fHCxyV4mg5p", accountNumber: null, token: "fHCxyV4mg5p" },
    },
    {
      // Pasted with the punctuation of the SMS sentence.
      url: "https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL.",
      expected: {
        transactionNumber: "v2-hfHCxGvIhvqVMTB7hylL",
        accountNumber: null,
        token: "v2-hfHCxGvIhvqVMTB7hylL",
      },
    },
    {
      url: "https://Mb.cbe.com.et/api/v1/transactions/public/transaction-detail/v2-hfHCxzxlYzc8nHWc1MJG",
      expected: {
        transactionNumber: "v2-hfHCxzxlYzc8nHWc1MJG",
        accountNumber: null,
        token: "v2-hfHCxzxlYzc8nHWc1MJG",
      },
    },
    {
      url: "https://apps.cbe.com.et:100/?id=FT26140P01YB60536171",
      expected: { transactionNumber: "FT26140P01YB", accountNumber: "60536171", token: null },
    },
    {
      url: "https://apps.cbe.com.et:100/?id=ft26140p01yb60536171",
      expected: { transactionNumber: "FT26140P01YB", accountNumber: "60536171", token: null },
    },
    {
      url: "https://apps.cbe.com.et:100/BranchReceipt/FT26170NPPON&27204417",
      expected: { transactionNumber: "FT26170NPPON", accountNumber: "27204417", token: null },
    },
    {
      url: "https://apps.cbe.com.et:100/?id=FT26140P01YB60536171).",
      expected: { transactionNumber: "FT26140P01YB", accountNumber: "60536171", token: null },
    },
  ],
  foreignUrls: [
    "https://mbreciept.cbe.com.et/",
    "https://mbreciept.cbe.com.et/v2-abc",
    "https://mbreciept.cbe.com.et/some/path/v2-hfHCxGvIhvqVMTB7hylL",
    "https://forms.gle/AbCdEfGh12345",
    "https://apps.cbe.com.et:100/?id=FT26140P01YB",
    "https://apps.cbe.com.et:100/?id=FT26140P01YB6053617X",
    "https://apps.cbe.com.et/?id=FT26140P01YB60536171",
    "https://apps.cbe.com.et:100/BranchReceipt/FT26170NPPON27204417",
    "https://mbreciept.cbe.com.et.evil.example/v2-hfHCxGvIhvqVMTB7hylL",
  ],
  invalidTargets: [
    { transactionNumber: "FT26140P01YB", account: null, token: null },
    { transactionNumber: "FT26140P01YB", account: "6171", token: null },
    { transactionNumber: "FT26140P01YB", account: "1****6171", token: null },
    { transactionNumber: "FT2614", account: "1000560536171", token: null },
    { transactionNumber: "DFH51OFIED", account: null, token: null },
    { transactionNumber: "bad token!", account: null, token: "bad token!" },
  ],
});

describe("cbe adapter: input", () => {
  const adapter = createCbeAdapter();

  it("keeps token case and uppercases FT references", () => {
    expect(adapter.normalizeReference("  v2-hfHCxGvIhvqVMTB7hylL ")).toBe("v2-hfHCxGvIhvqVMTB7hylL");
    expect(adapter.normalizeReference("fHCxyV4mg5p")).toBe("fHCxyV4mg5p");
    expect(adapter.normalizeReference("ft26140p01yb")).toBe("FT26140P01YB");
    expect(adapter.normalizeAccount("1000 5605-36171")).toBe("1000560536171");
  });

  it("treats a token given as the transaction number as a token lookup needing no account", () => {
    const target = { transactionNumber: "v2-hfHCxGvIhvqVMTB7hylL", account: null, token: null };
    expect(adapter.validate(target)).toBeNull();
    expect(adapter.buildRequest(target).url).toBe(
      "https://mb.cbe.com.et/api/v1/transactions/public/transaction-detail/v2-hfHCxGvIhvqVMTB7hylL",
    );
  });

  it("explains that an FT reference needs the receiving account", () => {
    expect(adapter.validate({ ...ftTarget, account: null })).toEqual({
      field: "account_number",
      message: expect.stringMatching(/account number field is required for Commercial Bank of Ethiopia/),
    });
    expect(adapter.validate({ ...ftTarget, account: "1234567" })?.field).toBe("account_number");
    expect(adapter.validate(ftTarget)).toBeNull();
  });

  it("sends the app headers to the JSON API", () => {
    const request = adapter.buildRequest(tokenTarget("fHCxyV4mg5pRIwEkJO"));
    expect(request.headers["X-App-ID"]).toBe(CBE_APP_ID);
    expect(request.headers["X-App-Version"]).toBe(CBE_APP_VERSION);
    expect(request.headers["User-Agent"]).toMatch(/Mozilla/);
    const custom = createCbeAdapter({ appId: "id-1", appVersion: "ver-1" }).buildRequest(
      tokenTarget("fHCxyV4mg5p"),
    );
    expect(custom.headers).toMatchObject({ "X-App-ID": "id-1", "X-App-Version": "ver-1" });
  });

  it("asks the legacy host with the last 8 digits of the receiving account", () => {
    expect(adapter.buildRequest(ftTarget).url).toBe("https://apps.cbe.com.et:100/?id=FT26140P01YB60536171");
    expect(adapter.network.insecureTlsOrigins).toEqual(["apps.cbe.com.et:100"]);
    expect(adapter.network.timeoutMs).toBe(30_000);
  });
});

describe("cbe adapter: JSON API answers", () => {
  const adapter = createCbeAdapter();
  const target = tokenTarget("v2-hfHCxGvIhvqVMTB7hylL");

  it("retries a plain 400 but not a missing-headers 400", () => {
    expect(adapter.isTransient?.(answer(400, '{"status":400}'))).toBe(true);
    expect(adapter.isTransient?.(answer(400, '{"detail":"Missing Headers"}'))).toBe(false);
    expect(adapter.isTransient?.(answer(200, fixture("api-transfer.json")))).toBe(false);
  });

  it("reads a 400 that survived the retries and the Security Alert 500 as not found", async () => {
    await expect(adapter.parseResponse(answer(400, '{"status":400}'), target)).resolves.toEqual({
      kind: "not_found",
    });
    const alert = '{"status":500,"detail":"Security Alert: Invalid or tampered legacy token!"}';
    await expect(
      adapter.parseResponse(answer(500, alert, "application/problem+json"), target),
    ).resolves.toEqual({ kind: "not_found" });
  });

  it("reads a JSON answer that starts with a byte-order mark", async () => {
    const body = `\ufeff${fixture("api-transfer.json")}`;
    await expect(adapter.parseResponse(answer(200, body), target)).resolves.toMatchObject({
      kind: "found",
      reference: "FT2614977L8S",
      receipt: { amount: 1300 },
    });
  });

  // weak (one project): Odit's docs say some ("dashed") mbreciept links are served as a CBE PDF.
  it("reads a PDF receipt answered for a token like the legacy PDF, under the FT number it shows", async () => {
    const pdf = await renderPdf((doc) => {
      doc.text("Reference No. (VAT Invoice No)", 40, 20, { continued: true }).text("FT26140P01YB");
      doc.text("Transferred Amount", 40, 40, { continued: true }).text("20,000.00 ETB");
      doc.text("Payment Date & Time", 40, 60, { continued: true }).text("5/20/2026, 7:29:00 PM");
    });
    await expect(adapter.parseResponse(answer(200, pdf, "application/pdf"), target)).resolves.toMatchObject({
      kind: "found",
      reference: "FT26140P01YB",
      receipt: { amount: 20000, transactionDate: "2026-05-20T19:29:00+03:00" },
    });
  });

  it("reports missing headers as a format error and other 5xx as unavailable", async () => {
    await expect(adapter.parseResponse(answer(400, "Missing Headers"), target)).rejects.toBeInstanceOf(
      ReceiptFormatError,
    );
    await expect(
      adapter.parseResponse(answer(502, "<html>Bad Gateway</html>"), target),
    ).rejects.toBeInstanceOf(BankUnavailableError);
  });
});

describe("cbe JSON parser", () => {
  it("reads a transfer", () => {
    expect(parseCbeJson(fixture("api-transfer.json"))).toEqual({
      status: "completed",
      transactionType: "ACNX",
      amount: 1300,
      currency: "ETB",
      transactionDate: "2026-05-29T08:30:00Z",
      payerName: "HANA TESFAYE ALEMU",
      payerAccount: "1********8348",
      receiverName: "DAWIT MEKONNEN BEKELE",
      receiverAccount: "1********7112",
      description: "House rent May",
    });
  });

  it("falls back to the debited amount and ETB, and joins the narrative", () => {
    const receipt = parseCbeJson(
      JSON.stringify({
        id: "FT26170NPQ2K",
        amountDebited: "2,000.00",
        dateTimes: ["2026-06-19T13:45:10.123Z"],
        paymentDetails: ["Invoice 2291", " cement delivery "],
      }),
    );
    expect(receipt).toMatchObject({
      amount: 2000,
      currency: "ETB",
      transactionDate: "2026-06-19T13:45:10Z",
      payerName: "",
      receiverAccount: "",
      description: "Invoice 2291 cement delivery",
    });
    expect(receipt.transactionType).toBeUndefined();
  });

  it("takes zone-less times as UTC, converts offsets, and accepts numeric amounts", () => {
    expect(parseCbeJson('{"amountCredited":1300,"dateTimes":["2026-05-20T19:29:00"]}').transactionDate).toBe(
      "2026-05-20T19:29:00Z",
    );
    const shifted = parseCbeJson('{"amountCredited":"5.00","dateTimes":"2026-05-20T22:29:00+03:00"}');
    expect(shifted).toMatchObject({ amount: 5, transactionDate: "2026-05-20T19:29:00Z", description: null });
  });

  it("rejects answers without amount or date, and non-JSON", () => {
    expect(() => parseCbeJson('{"dateTimes":["2026-05-29T08:30:00Z"]}')).toThrow(ReceiptFormatError);
    expect(() => parseCbeJson('{"amountCredited":"1.00","dateTimes":[]}')).toThrow(ReceiptFormatError);
    expect(() => parseCbeJson("<html>maintenance</html>")).toThrow(ReceiptFormatError);
    expect(() => parseCbeJson("[1,2]")).toThrow(ReceiptFormatError);
  });
});

describe("cbe legacy PDF text parser", () => {
  it("reads pdf-parse text with labels glued to values and two Account lines", () => {
    expect(parseCbePdfText(fixture("legacy-glued.txt"))).toEqual({
      status: "completed",
      amount: 20000,
      currency: "ETB",
      transactionDate: "2026-05-20T19:29:00+03:00",
      payerName: "Mr Biruk Tadesse Lemma",
      payerAccount: "1****1685",
      receiverName: "SAMUEL ADANE ZELEKE",
      receiverAccount: "1****6171",
      description: "screen done via Mobile",
    });
  });

  it("reads labels on their own lines, wrapped names and a time without seconds", () => {
    expect(parseCbePdfText(fixture("legacy-stacked.txt"))).toEqual({
      status: "completed",
      amount: 3450.75,
      currency: "ETB",
      transactionDate: "2026-06-19T00:05:00+03:00",
      payerName: "TINSAE GETACHEW",
      payerAccount: "1****2210",
      receiverName: "GETNET ASSEFA MULUGETA",
      receiverAccount: "1****4417",
      description: "Fund transfer",
    });
  });

  it("reads a label column followed by a value column", () => {
    expect(parseCbePdfText(fixture("legacy-columns.txt"))).toEqual({
      status: "completed",
      amount: 1000,
      currency: "ETB",
      transactionDate: "2026-12-01T23:59:59+03:00",
      payerName: "ABEBECH KEBEDE",
      payerAccount: "1****0947",
      receiverName: "MERON HAILE",
      receiverAccount: "1****5520",
      description: "Transfer via Mobile",
    });
  });

  it("reads values that pdf.js put before their labels on the same row", () => {
    const text = [
      "Mr X Y\tPayer",
      "1****1685\tAccount",
      "Z W\tReceiver",
      "1****6171\tAccount",
      "5/20/2026, 7:29:00 PM\tPayment Date & Time",
      "20,000.00 ETB\tTransferred Amount",
    ].join("\n");
    expect(parseCbePdfText(text)).toMatchObject({
      amount: 20000,
      payerName: "Mr X Y",
      payerAccount: "1****1685",
      receiverName: "Z W",
      receiverAccount: "1****6171",
    });
  });

  it("reads spaced labels and the web page's date form", () => {
    const text = [
      "Payer Mr X Y",
      "Account 1****1685",
      "Receiver Z W",
      "Account 1****6171",
      "Payment Date & Time Jun 19, 2026, 4:45 PM",
      "Transferred Amount ETB 1,100",
    ].join("\n");
    expect(parseCbePdfText(text)).toMatchObject({
      amount: 1100,
      transactionDate: "2026-06-19T16:45:00+03:00",
      payerAccount: "1****1685",
      receiverAccount: "1****6171",
      description: null,
    });
  });

  it("rejects text without a Transferred Amount or date", () => {
    expect(() => parseCbePdfText("Commercial Bank of Ethiopia\nPayerJohn Doe")).toThrow(ReceiptFormatError);
    expect(() => parseCbePdfText("Transferred Amount20.00 ETB")).toThrow(ReceiptFormatError);
  });
});

describe("cbe adapter: legacy host answers", () => {
  const adapter = createCbeAdapter();

  it("reads the 404 'not allowed' page as not found", async () => {
    const page = "<html><body>You Are Not Allowed to See This Data, Please Check your Link</body></html>";
    await expect(adapter.parseResponse(answer(404, page, "text/html"), ftTarget)).resolves.toEqual({
      kind: "not_found",
    });
  });

  it("reads a PDF and rejects a non-PDF 200", async () => {
    const pdf = await renderPdf((doc) => {
      doc.text("Transferred Amount", 40, 40, { continued: true }).text("75.00 ETB");
      doc.text("Payment Date & Time", 40, 60, { continued: true }).text("1/2/2026, 8:00:00 AM");
    });
    await expect(adapter.parseResponse(answer(200, pdf, "application/pdf"), ftTarget)).resolves.toMatchObject(
      {
        kind: "found",
        receipt: { amount: 75, transactionDate: "2026-01-02T08:00:00+03:00", payerName: "" },
      },
    );
    await expect(
      adapter.parseResponse(answer(200, "<html>hello</html>", "text/html"), ftTarget),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    await expect(
      adapter.parseResponse(answer(200, "%PDF-1.4 broken", "application/pdf"), ftTarget),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
  });
});

describe("simulated cbe", () => {
  const headers = { "x-app-id": CBE_APP_ID, "x-app-version": CBE_APP_VERSION };
  const api = (token: string, withHeaders = true) =>
    simulatedCbe.handle({
      origin: "mb.cbe.com.et:443",
      method: "GET",
      path: `/api/v1/transactions/public/transaction-detail/${token}`,
      query: new URLSearchParams(),
      headers: withHeaders ? headers : {},
    });

  it("answers 400 Missing Headers without the app headers", async () => {
    const res = await api("v2-hfHCxGvIhvqVMTB7hylL", false);
    expect(res.status).toBe(400);
    expect(String(res.body)).toContain("Missing Headers");
  });

  it("answers an FT number with the Security Alert 500", async () => {
    const res = await api("FT26140P01YB");
    expect(res.status).toBe(500);
    expect(String(res.body)).toContain("Security Alert: Invalid or tampered legacy token!");
  });

  it("answers an unknown legacy id with the 404 page", async () => {
    const res = await simulatedCbe.handle({
      origin: "apps.cbe.com.et:100",
      method: "GET",
      path: "/",
      query: new URLSearchParams({ id: "FT26140P01YB00000000" }),
      headers: {},
    });
    expect(res.status).toBe(404);
    expect(String(res.body)).toContain("You Are Not Allowed to See This Data, Please Check your Link");
  });
});

describe("cbe: the reference a receipt counts as used under", () => {
  const adapter = createCbeAdapter({ network: { timeoutMs: 1500, connectTimeoutMs: 1000, backoffMs: 0 } });
  let sim: Simulator;
  let client: BankHttpClient;

  beforeAll(async () => {
    sim = await startSimulator([simulatedCbe]);
    client = createBankHttpClient({ originOverrides: parseOriginOverrides(sim.overrides) });
  });
  afterAll(async () => {
    await client?.close();
    await sim?.close();
  });

  const lookup = (target: LookupTarget) => lookupAtBank(adapter, target, client, { sleep: async () => {} });
  const fromLink = (url: string): LookupTarget => {
    const link = adapter.parseShareUrl(new URL(url));
    if (!link) throw new Error(`not a CBE link: ${url}`);
    return { transactionNumber: link.transactionNumber, account: link.accountNumber, token: link.token };
  };

  it("is the FT number whether the transfer is checked by its token link or by FT + account", async () => {
    const byToken = await lookup(fromLink("https://mbreciept.cbe.com.et/v2-hfHCxGvIhvqVMTB7hylL"));
    const byLegacyLink = await lookup(fromLink("https://apps.cbe.com.et:100/?id=FT26140P01YB60536171"));
    const byReference = await lookup({
      transactionNumber: adapter.normalizeReference("ft26140p01yb"),
      account: adapter.normalizeAccount("1000 5605 36171"),
      token: null,
    });
    if (byToken.kind !== "found" || byLegacyLink.kind !== "found" || byReference.kind !== "found") {
      throw new Error("every path must find the transfer");
    }
    expect(byToken.reference).toBe("FT26140P01YB");
    expect(byLegacyLink.reference).toBe(byToken.reference);
    expect(byReference.reference).toBe(byToken.reference);

    // Both systems describe the same transfer, each in its own notation (UTC vs Addis time, mask widths).
    const [json, pdf] = [byToken.receipt, byReference.receipt];
    expect(Date.parse(json.transactionDate)).toBe(Date.parse(pdf.transactionDate));
    expect({
      ...json,
      transactionDate: "",
      transactionType: undefined,
      payerAccount: "",
      receiverAccount: "",
    }).toEqual({
      ...pdf,
      transactionDate: "",
      transactionType: undefined,
      payerAccount: "",
      receiverAccount: "",
    });
    expect(visibleDigits(json.payerAccount)).toMatchObject(visibleDigits(pdf.payerAccount));
    expect(visibleDigits(json.receiverAccount)).toMatchObject(visibleDigits(pdf.receiverAccount));
  });

  it("seeds that transfer in both systems under one reference, and every other example under its own", () => {
    const same = simulatedCbe.examples.filter((example) => example.reference === "FT26140P01YB");
    expect(same.map((example) => example.target.token === null)).toEqual([false, true]);
    const references = simulatedCbe.examples.map((example) => example.reference);
    expect(new Set(references).size).toBe(references.length - 1);
  });

  it("shows the FT number in the simulated legacy PDF itself, not only in the request", async () => {
    const res = await simulatedCbe.handle({
      origin: "apps.cbe.com.et:100",
      method: "GET",
      path: "/",
      query: new URLSearchParams({ id: "FT26140P01YB60536171" }),
      headers: {},
    });
    const text = await extractPdfText(Buffer.from(res.body));
    expect(readCbePdfText(text).reference).toBe("FT26140P01YB");
  });

  it("reads the FT number from the JSON id and from the PDF's Reference No. (VAT Invoice No)", () => {
    expect(readCbeJson(fixture("api-transfer.json")).reference).toBe("FT2614977L8S");
    expect(
      readCbeJson('{"id":" ft2614977l8s ","amountCredited":"1","dateTimes":["2026-05-29T08:30:00Z"]}')
        .reference,
    ).toBe("FT2614977L8S");
    expect(readCbePdfText(fixture("legacy-glued.txt")).reference).toBe("FT26140P01YB");
    expect(readCbePdfText(fixture("legacy-stacked.txt")).reference).toBe("FT26170NPPON");
    expect(readCbePdfText(fixture("legacy-columns.txt")).reference).toBe("FT26335AB12C");
  });

  it("reports a token lookup whose JSON has no id under the token itself", async () => {
    const body = '{"amountCredited":"5.00","dateTimes":["2026-05-29T08:30:00Z"]}';
    await expect(adapter.parseResponse(answer(200, body), tokenTarget("fHCxyV4mg5p"))).resolves.toMatchObject(
      {
        kind: "found",
        reference: "fHCxyV4mg5p",
      },
    );
  });

  it("refuses a legacy PDF of another transaction, and keeps the requested FT when the PDF shows none", async () => {
    const pdf = (reference: string | null) =>
      renderPdf((doc) => {
        if (reference)
          doc.text("Reference No. (VAT Invoice No)", 40, 20, { continued: true }).text(reference);
        doc.text("Transferred Amount", 40, 40, { continued: true }).text("75.00 ETB");
        doc.text("Payment Date & Time", 40, 60, { continued: true }).text("1/2/2026, 8:00:00 AM");
      });
    const other = adapter.parseResponse(answer(200, await pdf("FT26170NPPON"), "application/pdf"), ftTarget);
    await expect(other).rejects.toThrow(/answered with another transaction/);
    await expect(other).rejects.toBeInstanceOf(ReceiptFormatError);
    await expect(
      adapter.parseResponse(answer(200, await pdf("ft26140p01yb"), "application/pdf"), ftTarget),
    ).resolves.toMatchObject({ reference: "FT26140P01YB" });
    await expect(
      adapter.parseResponse(answer(200, await pdf(null), "application/pdf"), ftTarget),
    ).resolves.toMatchObject({ reference: "FT26140P01YB" });
  });
});

describe("cbe: branch-counter receipts (banks.md §2.1 B: /BranchReceipt/{FT}&{last8})", () => {
  const adapter = createCbeAdapter({ network: { timeoutMs: 1500, connectTimeoutMs: 1000, backoffMs: 0 } });
  const branch = LEGACY_RECEIPTS.find((r) => r.branch);
  if (!branch) throw new Error("the CBE simulator seeds a branch receipt");
  const paths: string[] = [];
  let server: Server;
  let client: BankHttpClient;

  // A legacy host that knows the branch receipt at its /BranchReceipt/ address only.
  beforeAll(async () => {
    const pdf = await renderLegacyPdf(branch);
    server = createServer((request, response) => {
      paths.push(request.url ?? "");
      if (request.url === `/BranchReceipt/${branch.reference}&${branch.suffix}`) {
        response.writeHead(200, { "content-type": "application/pdf" }).end(pdf);
      } else {
        response.writeHead(404, { "content-type": "text/html" }).end("You Are Not Allowed to See This Data");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    client = createBankHttpClient({
      originOverrides: parseOriginOverrides(`apps.cbe.com.et:100=http://127.0.0.1:${port}`),
    });
  });
  afterAll(async () => {
    await client?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("are found by FT + account at the branch address when the ?id= address does not know them", async () => {
    paths.length = 0;
    const outcome = await lookupAtBank(
      adapter,
      { transactionNumber: branch.reference, account: branch.fullAccount, token: null },
      client,
      { sleep: async () => {} },
    );
    expect(outcome).toMatchObject({ kind: "found", reference: branch.reference });
    expect(paths).toEqual([
      `/?id=${branch.reference}${branch.suffix}`,
      `/BranchReceipt/${branch.reference}&${branch.suffix}`,
    ]);
  });

  it("stay not found when neither address knows the transfer, after one request to each", async () => {
    paths.length = 0;
    const outcome = await lookupAtBank(
      adapter,
      { transactionNumber: "FT26001AAAAA", account: "1000000000001", token: null },
      client,
      { sleep: async () => {} },
    );
    expect(outcome).toEqual({ kind: "not_found" });
    expect(paths).toHaveLength(2);
  });
});
