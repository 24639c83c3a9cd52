import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

const BANK_ORIGIN = "siinqeebank.com:443";
const EBIRR_ORIGIN = "receipt.ebirr.com:443";

// No real Siinqee receipt has been seen (docs/banks.md §2.9, Weak), so each seeded receipt uses one of the
// common generic layouts: a label/value table, <strong>Label:</strong> lines, and a definition list.
interface SeededReceipt {
  reference: string;
  shareUrl?: string;
  page: string;
  receipt: Receipt;
}

const SEEDED: readonly SeededReceipt[] = [
  {
    reference: "FT262507XG9T",
    shareUrl: "https://siinqeebank.com/receipt/FT262507XG9T",
    page: page(
      "FT262507XG9T",
      `<table class="receipt">
        <tr><th>Transaction Reference</th><td>FT262507XG9T</td></tr>
        <tr><th>Payer Name</th><td>GEMECHU TOLESA DIRIBA</td></tr>
        <tr><th>Payer Account</th><td>1030****7781</td></tr>
        <tr><th>Receiver Name</th><td>CHALTU BEKELE GUTEMA</td></tr>
        <tr><th>Receiver Account</th><td>1030****2146</td></tr>
        <tr><th>Transferred Amount</th><td>ETB 5,000.00</td></tr>
        <tr><th>Service Charge</th><td>ETB 10.00</td></tr>
        <tr><th>VAT (15%)</th><td>ETB 1.50</td></tr>
        <tr><th>Total Amount</th><td>ETB 5,011.50</td></tr>
        <tr><th>Transaction Date</th><td>07/09/2026 10:42:15</td></tr>
        <tr><th>Narrative</th><td>House rent September</td></tr>
        <tr><th>Status</th><td>Success</td></tr>
      </table>`,
    ),
    receipt: {
      status: "completed",
      amount: 5000,
      currency: "ETB",
      transactionDate: "2026-09-07T10:42:15+03:00",
      payerName: "GEMECHU TOLESA DIRIBA",
      payerAccount: "1030****7781",
      receiverName: "CHALTU BEKELE GUTEMA",
      receiverAccount: "1030****2146",
      description: "House rent September",
    },
  },
  {
    reference: "FT26248K7Q1P",
    // Old eBirr links are looked up on the bank's own host.
    shareUrl: "https://receipt.ebirr.com/siinqee/FT26248K7Q1P",
    page: page(
      "FT26248K7Q1P",
      `<div class="details">
        <p><strong>Reference No:</strong> FT26248K7Q1P</p>
        <p><strong>Sender:</strong> Lensa Fikadu Gemeda</p>
        <p><strong>Sender Account:</strong> 1020***4521</p>
        <p><strong>Beneficiary:</strong> Abdi Kedir Mohammed</p>
        <p><strong>Beneficiary Account:</strong> 1000198834417</p>
        <p><strong>Amount:</strong> 1,250.00 Birr</p>
        <p><strong>Date:</strong> Sep 5, 2026, 5:14 PM</p>
        <p><strong>Reason:</strong> Coffee beans order 14</p>
      </div>`,
    ),
    receipt: {
      status: "completed",
      amount: 1250,
      currency: "ETB",
      transactionDate: "2026-09-05T17:14:00+03:00",
      payerName: "Lensa Fikadu Gemeda",
      payerAccount: "1020***4521",
      receiverName: "Abdi Kedir Mohammed",
      receiverAccount: "1000198834417",
      description: "Coffee beans order 14",
    },
  },
  {
    reference: "FT26301B7KQ2",
    page: page(
      "FT26301B7KQ2",
      `<dl class="receipt">
        <dt>Ref.</dt><dd>FT26301B7KQ2</dd>
        <dt>Debited From</dt><dd>Tolera Gudeta Hirpa</dd>
        <dt>Debit Account</dt><dd>1040000917325</dd>
        <dt>Credited To</dt><dd>Obse Trading PLC</dd>
        <dt>Credit Account</dt><dd>1040000255018</dd>
        <dt>Transaction Type</dt><dd>Fund Transfer</dd>
        <dt>Amount (ETB)</dt><dd>300</dd>
        <dt>Date &amp; Time</dt><dd>2026-10-28 08:05:33</dd>
        <dt>Status</dt><dd>Completed</dd>
      </dl>`,
    ),
    receipt: {
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
    },
  },
];

const examples: SimExample[] = SEEDED.map(({ reference, shareUrl, receipt }) => ({
  target: { transactionNumber: reference, account: null, token: null },
  ...(shareUrl ? { shareUrl } : {}),
  reference,
  receipt,
}));

/** Siinqee Bank: receipt pages on siinqeebank.com; the old eBirr route is gone (404 "Cannot GET"). */
export const simulatedSinqee: SimulatedBank = {
  code: "sinqee",
  origins: [BANK_ORIGIN, EBIRR_ORIGIN],
  examples,
  notFound: { transactionNumber: "FT26250ZZ9QX", account: null, token: null },
  handle(request: SimRequest): SimResponse {
    const reference = /^\/receipt\/([^/]+)$/.exec(request.path)?.[1];
    if (request.origin === EBIRR_ORIGIN || request.method !== "GET" || !reference) {
      return { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: cannot(request) };
    }
    const seeded = SEEDED.find((entry) => entry.reference === decodeURIComponent(reference).toUpperCase());
    return {
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: seeded?.page ?? NOT_FOUND,
    };
  },
};

// --- internal helpers ---

function cannot(request: SimRequest): string {
  return `Cannot ${request.method} ${request.path}`;
}

function page(reference: string, details: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Siinqee Bank | Transaction Receipt ${reference}</title></head>
<body>
  <header><img src="/wp-content/uploads/2024/03/Green-Logo.png" alt="Siinqee Bank"><h2>Transaction Receipt</h2></header>
  <main>
    ${details}
  </main>
  <footer><p>Thank you for banking with Siinqee Bank.</p></footer>
</body>
</html>`;
}

// The eBirr platform's miss page, which the bank's host is expected to mirror.
const NOT_FOUND = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Receipt</title></head>
<body><h1 style="color:red;text-align:center">Not Found Page</h1></body>
</html>`;
