import { renderPdf } from "../../simulator/pdf.js";
import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

// Imitates both CBE receipt systems (docs/banks.md §2.1):
// - the mobile-receipt JSON API behind https://mbreciept.cbe.com.et/{token}: needs X-App-ID/X-App-Version
//   (400 "Missing Headers"), unknown tokens and FT numbers get 500 "Security Alert…", some valid tokens
//   answer a sporadic 400 first;
// - the legacy PDF host on port 100 (?id={FT}{last8} and /BranchReceipt/{FT}&{last8}): a "VAT Invoice /
//   Customer Receipt" whose text pdf-parse emits with labels glued to values; misses are a 404 HTML page.

const SHARE_ORIGIN = "mbreciept.cbe.com.et:443";
const API_ORIGIN = "mb.cbe.com.et:443";
const LEGACY_ORIGIN = "apps.cbe.com.et:100";
const API_PATH = "/api/v1/transactions/public/transaction-detail/";

interface TokenReceipt {
  token: string;
  /** The bank answers 400 to every other request for this token (the sporadic 400 of docs/banks.md §1.4). */
  flaky?: boolean;
  json: Record<string, unknown>;
  receipt: Receipt;
}

const TOKEN_RECEIPTS: TokenReceipt[] = [
  {
    // The sandbox example: the same transfer as the legacy PDF example FT26140P01YB (below), reached by
    // its token link. The JSON API gives the time in UTC (7:29 PM Addis) and masks accounts to first
    // digit and last four.
    token: "v2-hfHCxGvIhvqVMTB7hylL",
    json: {
      id: "FT26140P01YB",
      transactionType: "ACNX",
      debitAccountHolder: "Mr Biruk Tadesse Lemma",
      debitAccountNo: "1********1685",
      creditAccountHolder: "SAMUEL ADANE ZELEKE",
      creditAccountNo: "1********6171",
      amountDebited: "20000.00",
      amountCredited: "20000.00",
      debitCurrency: "ETB",
      creditCurrency: "ETB",
      dateTimes: ["2026-05-20T16:29:00Z"],
      paymentDetails: ["rent payment done via Mobile"],
    },
    receipt: {
      status: "completed",
      transactionType: "ACNX",
      amount: 20000,
      currency: "ETB",
      transactionDate: "2026-05-20T16:29:00Z",
      payerName: "Mr Biruk Tadesse Lemma",
      payerAccount: "1********1685",
      receiverName: "SAMUEL ADANE ZELEKE",
      receiverAccount: "1********6171",
      description: "rent payment done via Mobile",
    },
  },
  {
    // A debit-side record: no credited amount or currency, a time with milliseconds, a two-part narrative.
    token: "v2-hfHCxzxlYzc8nHWc1MJG",
    flaky: true,
    json: {
      id: "FT26170NPQ2K",
      transactionType: "ACMB",
      debitAccountHolder: "SELAMAWIT GIRMA TADESSE",
      debitAccountNo: "1********3928",
      creditAccountHolder: "ABEBE KEBEDE TRADING PLC",
      creditAccountNo: "1********1758",
      amountDebited: "2000.00",
      dateTimes: ["2026-06-19T13:45:10.000Z", "2026-06-19T13:45:12.000Z"],
      paymentDetails: ["Invoice 2291", "cement delivery"],
    },
    receipt: {
      status: "completed",
      transactionType: "ACMB",
      amount: 2000,
      currency: "ETB",
      transactionDate: "2026-06-19T13:45:10Z",
      payerName: "SELAMAWIT GIRMA TADESSE",
      payerAccount: "1********3928",
      receiverName: "ABEBE KEBEDE TRADING PLC",
      receiverAccount: "1********1758",
      description: "Invoice 2291 cement delivery",
    },
  },
  {
    // An older bare id: no narrative.
    token: "fHCxyV4mg5pRIwEkJO",
    json: {
      id: "FT26152K3M9T",
      transactionType: "ACNX",
      debitAccountHolder: "YONAS ALEMAYEHU GETACHEW",
      debitAccountNo: "1********0947",
      creditAccountHolder: "MERON HAILE WOLDE",
      creditAccountNo: "1********5520",
      amountDebited: "50.00",
      amountCredited: "50.00",
      creditCurrency: "ETB",
      dateTimes: ["2026-06-01T06:05:00Z"],
      paymentDetails: [],
    },
    receipt: {
      status: "completed",
      transactionType: "ACNX",
      amount: 50,
      currency: "ETB",
      transactionDate: "2026-06-01T06:05:00Z",
      payerName: "YONAS ALEMAYEHU GETACHEW",
      payerAccount: "1********0947",
      receiverName: "MERON HAILE WOLDE",
      receiverAccount: "1********5520",
      description: null,
    },
  },
  {
    // Seeded in the JSON system only; the same record as test/fixtures/banks/cbe/api-transfer.json.
    token: "v2-hfHCxK9bLmQ2rTzWp4Vd",
    json: {
      id: "FT2614977L8S",
      transactionType: "ACNX",
      debitAccountHolder: "HANA TESFAYE ALEMU",
      debitAccountNo: "1********8348",
      creditAccountHolder: "DAWIT MEKONNEN BEKELE",
      creditAccountNo: "1********7112",
      amountDebited: "1300.00",
      amountCredited: "1300.00",
      debitCurrency: "ETB",
      creditCurrency: "ETB",
      dateTimes: ["2026-05-29T08:30:00Z"],
      paymentDetails: ["House rent May"],
    },
    receipt: {
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
    },
  },
];

export interface LegacyReceipt {
  reference: string;
  /** Last 8 digits of the receiving account. */
  suffix: string;
  fullAccount: string;
  /** Branch-counter receipts are shared as /BranchReceipt/{FT}&{last8} and laid out in two columns. */
  branch: boolean;
  fields: {
    customer: string;
    region: string;
    city: string;
    subCity: string;
    wereda: string;
    branchName: string;
    vatReceiptNo: string;
    payer: string;
    payerAccount: string;
    receiver: string;
    receiverAccount: string;
    date: string;
    reason: string;
    amount: string;
    commission: string;
    vat: string;
    disaster: string;
    total: string;
    words: string;
  };
  receipt: Receipt;
}

export const LEGACY_RECEIPTS: LegacyReceipt[] = [
  {
    // The sample of docs/banks.md §2.1: FT26140P01YB, 20,000.00 ETB on 5/20/2026, 7:29:00 PM, receiver …6171.
    reference: "FT26140P01YB",
    suffix: "60536171",
    fullAccount: "1000560536171",
    branch: false,
    fields: {
      customer: "Mr Biruk Tadesse Lemma",
      region: "Addis Ababa",
      city: "Addis Ababa",
      subCity: "Nifas Silk Lafto",
      wereda: "03",
      branchName: "MEKANISA MICHAEL BRANCH",
      vatReceiptNo: "FT26140P01YB",
      payer: "Mr Biruk Tadesse Lemma",
      payerAccount: "1****1685",
      receiver: "SAMUEL ADANE ZELEKE",
      receiverAccount: "1****6171",
      date: "5/20/2026, 7:29:00 PM",
      reason: "rent payment done via Mobile",
      amount: "20,000.00 ETB",
      commission: "10.00 ETB",
      vat: "1.50 ETB",
      disaster: "0.50 ETB",
      total: "20,012.00 ETB",
      words: "ETB Twenty Thousand Twelve & Zero cents",
    },
    receipt: {
      status: "completed",
      amount: 20000,
      currency: "ETB",
      transactionDate: "2026-05-20T19:29:00+03:00",
      payerName: "Mr Biruk Tadesse Lemma",
      payerAccount: "1****1685",
      receiverName: "SAMUEL ADANE ZELEKE",
      receiverAccount: "1****6171",
      description: "rent payment done via Mobile",
    },
  },
  {
    // A branch-counter transfer (FT26170NPPON = 19 Jun 2026), morning time, no service charge.
    reference: "FT26170NPPON",
    suffix: "27204417",
    fullAccount: "1000227204417",
    branch: true,
    fields: {
      customer: "ALMAZ WORKU DESTA",
      region: "Oromia",
      city: "Adama",
      subCity: "Bole",
      wereda: "01",
      branchName: "ADAMA BRANCH",
      vatReceiptNo: "FT26170NPPON",
      payer: "ALMAZ WORKU DESTA",
      payerAccount: "1****2210",
      receiver: "GETNET ASSEFA MULUGETA",
      receiverAccount: "1****4417",
      date: "6/19/2026, 9:05:41 AM",
      reason: "Fund transfer",
      amount: "3,450.75 ETB",
      commission: "0.00 ETB",
      vat: "0.00 ETB",
      disaster: "0.00 ETB",
      total: "3,450.75 ETB",
      words: "ETB Three Thousand Four Hundred Fifty & Seventy Five cents",
    },
    receipt: {
      status: "completed",
      amount: 3450.75,
      currency: "ETB",
      transactionDate: "2026-06-19T09:05:41+03:00",
      payerName: "ALMAZ WORKU DESTA",
      payerAccount: "1****2210",
      receiverName: "GETNET ASSEFA MULUGETA",
      receiverAccount: "1****4417",
      description: "Fund transfer",
    },
  },
];

const NOT_ALLOWED_PAGE =
  '<!DOCTYPE html><html><head><title>CBE</title></head><body><div class="alert alert-danger"><h3>You Are Not Allowed to See This Data, Please Check your Link</h3></div></body></html>';

const SECURITY_ALERT = JSON.stringify({
  type: "about:blank",
  title: "Internal Server Error",
  status: 500,
  detail: "Security Alert: Invalid or tampered legacy token!",
});

const MISSING_HEADERS = JSON.stringify({
  type: "about:blank",
  title: "Bad Request",
  status: 400,
  detail: "Missing Headers",
});

const requestsByToken = new Map<string, number>();

export const simulatedCbe: SimulatedBank = {
  code: "cbe",
  origins: [SHARE_ORIGIN, API_ORIGIN, LEGACY_ORIGIN],
  examples: [
    // A token link is reported under the FT number behind it, as a legacy lookup of the same transfer is.
    ...TOKEN_RECEIPTS.map(
      ({ token, json, receipt }): SimExample => ({
        target: { transactionNumber: token, account: null, token },
        shareUrl: `https://mbreciept.cbe.com.et/${token}`,
        reference: String(json.id),
        receipt,
      }),
    ),
    ...LEGACY_RECEIPTS.map(
      ({ reference, suffix, fullAccount, branch, receipt }): SimExample => ({
        target: { transactionNumber: reference, account: fullAccount, token: null },
        shareUrl: branch
          ? `https://apps.cbe.com.et:100/BranchReceipt/${reference}&${suffix}`
          : `https://apps.cbe.com.et:100/?id=${reference}${suffix}`,
        reference,
        receipt,
      }),
    ),
  ],
  notFound: { transactionNumber: "v2-hfHCxQ7rNoSuchRcpt", account: null, token: "v2-hfHCxQ7rNoSuchRcpt" },
  handle(request: SimRequest): Promise<SimResponse> | SimResponse {
    if (request.origin === API_ORIGIN) return answerApi(request);
    if (request.origin === LEGACY_ORIGIN) return answerLegacy(request);
    return answerSharePage();
  },
};

// --- internal helpers ---

function problem(status: number, body: string): SimResponse {
  return { status, headers: { "content-type": "application/problem+json" }, body };
}

function answerApi(request: SimRequest): SimResponse {
  if (request.method !== "GET" || !request.path.startsWith(API_PATH)) {
    return problem(404, JSON.stringify({ title: "Not Found", status: 404 }));
  }
  if (!request.headers["x-app-id"] || !request.headers["x-app-version"]) return problem(400, MISSING_HEADERS);
  const token = decodeURIComponent(request.path.slice(API_PATH.length));
  const found = TOKEN_RECEIPTS.find((entry) => entry.token === token);
  if (!found) return problem(500, SECURITY_ALERT);
  if (found.flaky) {
    const count = (requestsByToken.get(token) ?? 0) + 1;
    requestsByToken.set(token, count);
    if (count % 2 === 1) return problem(400, JSON.stringify({ title: "Bad Request", status: 400 }));
  }
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(found.json),
  };
}

async function answerLegacy(request: SimRequest): Promise<SimResponse> {
  const id = legacyId(request);
  const found = LEGACY_RECEIPTS.find((entry) => `${entry.reference}${entry.suffix}` === id);
  if (!found)
    return { status: 404, headers: { "content-type": "text/html; charset=utf-8" }, body: NOT_ALLOWED_PAGE };
  return {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="${found.reference}.pdf"`,
    },
    body: await renderLegacyPdf(found),
  };
}

function legacyId(request: SimRequest): string {
  if (request.path === "/") return (request.query.get("id") ?? "").toUpperCase();
  const match = /^\/BranchReceipt\/(.+)$/i.exec(request.path);
  if (!match?.[1]) return "";
  const [reference = "", suffix = ""] = decodeURIComponent(match[1]).split("&");
  return `${reference}${suffix}`.toUpperCase();
}

function answerSharePage(): SimResponse {
  // The share host is a Nuxt SPA; the receipt itself comes from the API.
  return {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: '<!DOCTYPE html><html><head><title>CBE Receipt</title></head><body><div id="__nuxt"></div><script src="/_nuxt/entry.js"></script></body></html>',
  };
}

export function renderLegacyPdf({ fields, branch }: LegacyReceipt): Promise<Buffer> {
  return renderPdf((doc) => {
    doc.fontSize(14).text("Commercial Bank of Ethiopia", 40, 40);
    doc.fontSize(11).text("VAT Invoice / Customer Receipt", 40, 62);
    doc.fontSize(9);
    let y = 92;
    // Mobile receipts are drawn as label runs followed directly by their values, which pdf-parse glues
    // ("Transferred Amount20,000.00 ETB"); branch receipts put values in a column of their own.
    const row = (label: string, value: string) => {
      if (branch) {
        doc.text(label, 40, y);
        doc.text(value, 260, y);
      } else {
        doc.text(label, 40, y, { continued: true }).text(value);
      }
      y += 15;
    };
    row("Customer Name", fields.customer);
    row("Region", fields.region);
    row("City", fields.city);
    row("Sub city", fields.subCity);
    row("Wereda/Kebele", fields.wereda);
    row("Branch", fields.branchName);
    row("VAT Receipt No", fields.vatReceiptNo);
    row("VAT Registration No", "011140");
    row("SWIFT Code", "CBETETAA");
    row("Tin", "0000006966");
    y += 10;
    doc.fontSize(11).text("Payment / Transaction Information", 40, y);
    doc.fontSize(9);
    y += 20;
    row("Payer", fields.payer);
    row("Account", fields.payerAccount);
    row("Receiver", fields.receiver);
    row("Account", fields.receiverAccount);
    row("Payment Date & Time", fields.date);
    row("Reference No. (VAT Invoice No)", fields.vatReceiptNo);
    row("Reason / Type of service", fields.reason);
    row("Transferred Amount", fields.amount);
    row("Commission or Service Charge", fields.commission);
    row("15% VAT on Commission", fields.vat);
    row("5% Disaster Recovery", fields.disaster);
    row("Total amount debited from customers account", fields.total);
    row("Amount in Word", fields.words);
    y += 20;
    doc.fontSize(8).text("The Bank you can always rely on!", 40, y);
  });
}
