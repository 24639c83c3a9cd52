import { renderPdf } from "../../simulator/pdf.js";
import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

// Imitates https://cbepay1.cbe.com.et/aureceipt?TID={receipt no}&PH={payer phone} (docs/banks.md §2.7): a
// "VAT Invoice/ Customer Receipt" PDF whose pdf-parse text has labels glued to values, the Transaction
// Details row run together ("DIP41PM7JL2026-09-25 16:3920.00"), the amount column above its labels and
// the payment labels above their values. One receipt is served as the ASP.NET/Telerik HTML report
// cheki saw. A miss (unknown receipt, or the receiver's phone) is HTTP 200 with an empty Telerik
// ReportViewer page titled "Auto Receipt".

const ORIGIN = "cbepay1.cbe.com.et:443";

interface CbeBirrTransaction {
  receiptNumber: string;
  /** The payer phone the lookup needs, 2519XXXXXXXX. */
  phone: string;
  html?: boolean;
  customer: string;
  region: string;
  city: string;
  subCity: string;
  wereda: string;
  debitAccount: string;
  creditAccount: string;
  receiverName: string;
  orderId: string;
  status: string;
  reference: string;
  date: string;
  amount: string;
  serviceCharge: string;
  vat: string;
  total: string;
  words: string;
  reason: string;
  channel: string;
  receipt: Receipt;
}

const TRANSACTIONS: CbeBirrTransaction[] = [
  {
    // The glued table row of docs/banks.md §2.7: 20.00 on 2026-09-25 16:39, wallet to wallet over USSD.
    receiptNumber: "DIP41PM7JL",
    phone: "251911234567",
    customer: "TSION BEKELE HAILU",
    region: "Addis Ababa",
    city: "Addis Ababa",
    subCity: "Yeka",
    wereda: "07",
    debitAccount: "251911234567",
    creditAccount: "0922446688 - KIDIST ALEMU GEBREMEDHIN",
    receiverName: "KIDIST ALEMU GEBREMEDHIN",
    orderId: "DIP41PM7JL",
    status: "Completed",
    reference: "DIP41PM7JL",
    date: "2026-09-25 16:39",
    amount: "20.00",
    serviceCharge: "0.00",
    vat: "0.00",
    total: "20.00",
    words: "Twenty Birr and Zero Cents",
    reason: "Lunch",
    channel: "USSD",
    receipt: {
      status: "completed",
      amount: 20,
      currency: "ETB",
      transactionDate: "2026-09-25T16:39:00+03:00",
      payerName: "TSION BEKELE HAILU",
      payerAccount: "251911234567",
      receiverName: "KIDIST ALEMU GEBREMEDHIN",
      receiverAccount: "0922446688",
      description: "Lunch",
    },
  },
  {
    // Wallet to a CBE bank account from the app, with a service charge and VAT.
    receiptNumber: "CGU7K2M9QA",
    phone: "251987654321",
    customer: "MULUGETA ASFAW DEMISSIE",
    region: "Amhara",
    city: "Bahir Dar",
    subCity: "Belay Zeleke",
    wereda: "12",
    debitAccount: "251987654321",
    creditAccount: "1000123456789",
    receiverName: "ETHIO BUILD MATERIALS PLC",
    orderId: "FT26268WQ7XZ",
    status: "Completed",
    reference: "CGU7K2M9QA",
    date: "2026-09-25 09:05",
    amount: "1,500.00",
    serviceCharge: "5.00",
    vat: "0.75",
    total: "1,505.75",
    words: "One Thousand Five Hundred Five Birr and Seventy Five Cents",
    reason: "Cement order 118",
    channel: "App",
    receipt: {
      status: "completed",
      amount: 1500,
      currency: "ETB",
      transactionDate: "2026-09-25T09:05:00+03:00",
      payerName: "MULUGETA ASFAW DEMISSIE",
      payerAccount: "251987654321",
      receiverName: "ETHIO BUILD MATERIALS PLC",
      receiverAccount: "1000123456789",
      description: "Cement order 118",
    },
  },
  {
    // The HTML report variant, with an FT-style receipt number and a "Br" amount.
    receiptNumber: "FT26271B4NHD",
    phone: "251944556677",
    html: true,
    customer: "SARA TEKLE BERHE",
    region: "Tigray",
    city: "Mekelle",
    subCity: "Hadnet",
    wereda: "05",
    debitAccount: "251944556677",
    creditAccount: "0933221100 - HABTAMU GIRMA",
    receiverName: "HABTAMU GIRMA",
    orderId: "FT26271B4NHD",
    status: "Completed",
    reference: "FT26271B4NHD",
    date: "2026-09-28 20:14",
    amount: "Br 350.00",
    serviceCharge: "Br 0.00",
    vat: "Br 0.00",
    total: "Br 350.00",
    words: "Three Hundred Fifty Birr",
    reason: "Books",
    channel: "App",
    receipt: {
      status: "completed",
      amount: 350,
      currency: "ETB",
      transactionDate: "2026-09-28T20:14:00+03:00",
      payerName: "SARA TEKLE BERHE",
      payerAccount: "251944556677",
      receiverName: "HABTAMU GIRMA",
      receiverAccount: "0933221100",
      description: "Books",
    },
  },
];

export const simulatedCbeBirr: SimulatedBank = {
  code: "cbebirr",
  origins: [ORIGIN],
  examples: TRANSACTIONS.map(
    ({ receiptNumber, phone, receipt }): SimExample => ({
      target: { transactionNumber: receiptNumber, account: phone, token: null },
      shareUrl: `https://cbepay1.cbe.com.et/aureceipt?TID=${receiptNumber}&PH=${phone}`,
      reference: receiptNumber,
      receipt,
    }),
  ),
  notFound: { transactionNumber: "DIP9ZZ00XQ", account: "251911234567", token: null },
  async handle(request: SimRequest): Promise<SimResponse> {
    if (request.method !== "GET" || request.path.toLowerCase() !== "/aureceipt") {
      return {
        status: 404,
        headers: { "content-type": "text/html" },
        body: "<h2>Server Error in '/' Application.</h2>",
      };
    }
    // ASP.NET reads query names case-insensitively.
    const query = new Map([...request.query].map(([key, value]) => [key.toLowerCase(), value]));
    const tid = (query.get("tid") ?? "").toUpperCase();
    const phone = query.get("ph") ?? "";
    const found = TRANSACTIONS.find((entry) => entry.receiptNumber === tid && entry.phone === phone);
    if (!found) return html(emptyShell());
    if (found.html) return html(htmlReport(found));
    return {
      status: 200,
      headers: { "content-type": "application/pdf", "content-disposition": `inline; filename="${tid}.pdf"` },
      body: await renderReceipt(found),
    };
  },
};

// --- internal helpers ---

function html(body: string): SimResponse {
  return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body };
}

function telerikPage(content: string): string {
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>
\tAuto Receipt
</title><link href="/Telerik.Web.UI.WebResource.axd?d=ReportViewer" type="text/css" rel="stylesheet" class="Telerik_stylesheet" /></head>
<body><form method="post" action="./aureceipt" id="form1">
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="/wEPDwUKMTY1NDU2MTA1MmRk" />
<script type="text/javascript">var ReportViewer1 = { ReportViewerID: "ReportViewer1" };</script>
<div id="ReportViewer1" style="height:1200px;width:100%;">${content}</div>
</form></body></html>`;
}

function emptyShell(): string {
  return telerikPage("");
}

function htmlReport(t: CbeBirrTransaction): string {
  const cell = (label: string, value: string) =>
    `<tr><td class="lbl"><div>${label}</div></td><td class="val"><div>${escapeHtml(value)}</div></td></tr>`;
  return telerikPage(`<div class="report">
<div class="title">VAT Invoice/ Customer Receipt</div>
<table>
<tr><td colspan="2"><div>Customer Information</div></td></tr>
${cell("Customer Name:", t.customer)}${cell("Region:", t.region)}${cell("City:", t.city)}${cell("Sub city:", t.subCity)}${cell("Wereda/kebele:", t.wereda)}
<tr><td colspan="2"><div>Transaction Information</div></td></tr>
${cell("Debit Account", t.debitAccount)}${cell("Credit Account", t.creditAccount)}${cell("Receiver Name", t.receiverName)}${cell("Order ID", t.orderId)}${cell("Transaction Status", t.status)}${cell("Reference", t.reference)}
</table>
<div>Transaction Details</div>
<table><tr><th>Receipt Number</th><th>Transaction Date</th><th>Amount</th></tr>
<tr><td>${t.receiptNumber}</td><td>${t.date}</td><td>${escapeHtml(t.amount)}</td></tr></table>
<table>
${cell("Paid amount", t.amount)}${cell("Service Charge", t.serviceCharge)}${cell("VAT", t.vat)}${cell("Total Paid Amount", t.total)}
${cell("Total Amount in word", t.words)}${cell("Payment Reason", t.reason)}${cell("Payment Channel", t.channel)}
</table></div>`);
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Drawn in the content order that makes pdf-parse reproduce the real receipt's quirks. */
function renderReceipt(t: CbeBirrTransaction): Promise<Buffer> {
  return renderPdf((doc) => {
    doc.fontSize(13).text("Commercial Bank of Ethiopia", 40, 40);
    doc.fontSize(11).text("VAT Invoice/ Customer Receipt", 40, 60);
    doc.fontSize(10).text("Customer Information", 40, 86);
    doc.fontSize(9);
    // The customer block: labels first, then the one value the report fills, beside the first label.
    ["Customer Name:", "Region:", "City:", "Sub city:"].forEach((label, i) => {
      doc.text(label, 40, 104 + i * 14);
    });
    doc.text(t.customer, 150, 104);
    doc.text("Wereda/kebele:", 40, 160);

    doc.fontSize(10).text("Transaction Information", 40, 186);
    doc.fontSize(9);
    const glued: [string, string][] = [
      ["Debit Account", t.debitAccount],
      ["Credit Account", t.creditAccount],
      ["Receiver Name", t.receiverName],
      ["Order ID", t.orderId],
      ["Transaction Status", t.status],
      ["Reference", t.reference],
    ];
    let y = 204;
    for (const [label, value] of glued) {
      // Long values wrap inside a narrow cell, as "Credit Account0976765611 - NAME\nREST" does.
      const [head, tail] = wrapCell(value, 32);
      doc.text(label, 40, y, { continued: true }).text(head);
      y += 14;
      if (tail) {
        doc.text(tail, 40, y);
        y += 14;
      }
    }

    doc.fontSize(10).text("Transaction Details", 40, y + 10);
    doc.fontSize(9);
    y += 28;
    doc
      .text("Receipt Number", 40, y, { continued: true })
      .text(" Transaction Date", { continued: true })
      .text(" Amount");
    y += 14;
    doc.text(t.receiptNumber, 40, y, { continued: true }).text(t.date, { continued: true }).text(t.amount);
    y += 24;

    // The amount column is drawn before its labels.
    const amounts = [t.amount, t.serviceCharge, t.vat, t.total];
    amounts.forEach((value, i) => {
      doc.text(value, 300, y + i * 14, { width: 90, align: "right" });
    });
    ["Paid amount", "Service Charge", "VAT", "Total Paid Amount"].forEach((label, i) => {
      doc.text(label, 40, y + i * 14);
    });
    y += 70;
    // The payment labels are drawn before their values.
    ["Total Amount in word", "Payment Reason", "Payment Channel"].forEach((label, i) => {
      doc.text(label, 40, y + i * 14);
    });
    [t.words, t.reason, t.channel].forEach((value, i) => {
      doc.text(value, 180, y + i * 14);
    });
  });
}

function wrapCell(value: string, width: number): [string, string] {
  if (value.length <= width) return [value, ""];
  const cut = value.lastIndexOf(" ", width);
  return cut <= 0 ? [value, ""] : [value.slice(0, cut), value.slice(cut + 1)];
}
