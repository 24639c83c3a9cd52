// An outsider's imitation of the CBE Birr wallet receipt host, written from docs/banks.md §2.7, §1.3, §1.5,
// §1.6 only: GET https://cbepay1.cbe.com.et/aureceipt?TID={receipt no}&PH={payer phone 2519…} answers the PDF
// "VAT Invoice/ Customer Receipt"; an unknown receipt or any other phone (the receiver's included) answers
// the documented miss, HTTP 200 text/html, the empty Telerik ReportViewer page titled "Auto Receipt".
import type { IncomingMessage, ServerResponse } from "node:http";
import PDFDocument from "pdfkit";
import { type LoopbackImitation, serveImitation } from "./harness.js";

export interface CbeBirrTransaction {
  receiptNumber: string;
  payerPhone: string;
  payerName: string;
  creditAccount: string;
  receiverName: string;
  /** YYYY-MM-DD HH:mm (docs/banks.md §1.6). */
  date: string;
  /** Bare amounts, or with "Br", as CBE Birr prints them (§1.5). */
  amount: string;
  serviceCharge: string;
  vat: string;
  total: string;
  inWords: string;
  reason: string;
  channel: string;
  /** docs/banks.md §2.7: a PDF per most parsers, a server-rendered Telerik report page per cheki. */
  format: "pdf" | "html";
}

export const cbeBirrTransactions: CbeBirrTransaction[] = [
  {
    receiptNumber: "CGU6K2PL9A",
    payerPhone: "251911234567",
    payerName: "ALMAZ TESFAYE BEYENE",
    creditAccount: "0976765611 - KALKIDAN MINI MARKET",
    receiverName: "KALKIDAN MINI MARKET",
    date: "2026-09-25 16:39",
    amount: "1500.00",
    serviceCharge: "3.00",
    vat: "0.45",
    total: "1503.45",
    inWords: "One Thousand Five Hundred Three Birr and Forty Five Cents",
    reason: "Goods payment",
    channel: "USSD",
    format: "pdf",
  },
  {
    receiptNumber: "DIP8M3QW2T",
    payerPhone: "251922765432",
    payerName: "BEREKET GIRMA",
    creditAccount: "0976765611 - KALKIDAN MINI MARKET",
    receiverName: "KALKIDAN MINI MARKET",
    date: "2026-09-27 09:05",
    amount: "20.00",
    serviceCharge: "0.00",
    vat: "0.00",
    total: "20.00",
    inWords: "Twenty Birr",
    reason: "Transfer",
    channel: "App",
    format: "html",
  },
  {
    receiptNumber: "CGU7N4RX5B",
    payerPhone: "251913004455",
    payerName: "NAHOM ASFAW",
    creditAccount: "0976765611 - KALKIDAN MINI MARKET",
    receiverName: "KALKIDAN MINI MARKET",
    date: "2026-10-01 12:00",
    amount: "Br 12500.00",
    serviceCharge: "Br 10.00",
    vat: "Br 1.50",
    total: "Br 12511.50",
    inWords: "Twelve Thousand Five Hundred Eleven Birr and Fifty Cents",
    reason: "Rent October",
    channel: "App",
    format: "pdf",
  },
];

export type BankImitation = LoopbackImitation;

export function startCbeBirrImitation(): Promise<BankImitation> {
  return serveImitation(["cbepay1.cbe.com.et:443"], handle);
}

const EMPTY_SHELL = `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Auto Receipt</title>
<link href="/Telerik.Web.UI.WebResource.axd?d=ReportViewer.css" rel="stylesheet" /></head>
<body><form method="post" action="./aureceipt" id="form1">
<div class="aspNetHidden"><input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="/wEPDwUKLTM0NjU2MzE5Mg9kFgICAw9kFgICAQ8UKwACZGRkGAEFHl9fQ29udHJvbHNSZXF1aXJlUG9zdEJhY2tLZXlfXxYBBQ5SZXBvcnRWaWV3ZXIx" /></div>
<div id="ReportViewer1" style="height:900px;width:100%;"><div id="ReportViewer1_ReportArea"></div></div>
<script type="text/javascript">Sys.Application.add_init(function(){$create(Telerik.ReportViewer.WebForms.ReportViewer,{},null,null,$get("ReportViewer1"));});</script>
</form></body></html>`;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://x");
  const found =
    url.pathname.toLowerCase() === "/aureceipt" &&
    cbeBirrTransactions.find(
      (t) => t.receiptNumber === url.searchParams.get("TID") && t.payerPhone === url.searchParams.get("PH"),
    );
  if (!found) {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(EMPTY_SHELL);
    return;
  }
  if (found.format === "html") {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(renderReportPage(found));
    return;
  }
  const pdf = await renderReceipt(found);
  response.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length });
  response.end(pdf);
}

function sections(t: CbeBirrTransaction) {
  return {
    header: [
      ["Customer Name:", t.payerName],
      ["Region:", "Addis Ababa"],
      ["City:", "Addis Ababa"],
      ["Sub city:", "Yeka"],
      ["Wereda/kebele:", "08"],
    ] as Array<[string, string]>,
    info: [
      ["Debit Account", t.payerPhone],
      ["Credit Account", t.creditAccount],
      ["Receiver Name", t.receiverName],
      ["Order ID", `${t.receiptNumber.slice(3)}7781`],
      ["Transaction Status", "Completed"],
      ["Reference", t.receiptNumber],
    ] as Array<[string, string]>,
    totals: [
      ["Paid amount", t.amount],
      ["Service Charge", t.serviceCharge],
      ["VAT", t.vat],
      ["Total Paid Amount", t.total],
      ["Total Amount in word", t.inWords],
      ["Payment Reason", t.reason],
      ["Payment Channel", t.channel],
    ] as Array<[string, string]>,
  };
}

/** The Telerik ReportViewer page with the report rendered into it as tables. */
function renderReportPage(t: CbeBirrTransaction): string {
  const { header, info, totals } = sections(t);
  const rows = (list: Array<[string, string]>) =>
    list
      .map(([label, value]) => `<tr><td class="lbl">${label}</td><td class="val">${value}</td></tr>`)
      .join("");
  return EMPTY_SHELL.replace(
    '<div id="ReportViewer1_ReportArea"></div>',
    `<div id="ReportViewer1_ReportArea"><div class="report">
<h3>VAT Invoice/ Customer Receipt</h3>
<table>${rows(header)}</table>
<h4>Transaction Information</h4>
<table>${rows(info)}</table>
<h4>Transaction Details</h4>
<table><tr><th>Receipt Number</th><th>Transaction Date</th><th>Amount</th></tr>
<tr><td>${t.receiptNumber}</td><td>${t.date}</td><td>${t.amount}</td></tr></table>
<table>${rows(totals)}</table>
</div></div>`,
  );
}

function renderReceipt(t: CbeBirrTransaction): Promise<Buffer> {
  const { header, info, totals } = sections(t);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 40 });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(14).text("Commercial Bank of Ethiopia - CBE Birr", 40, 40);
    doc.fontSize(12).text("VAT Invoice/ Customer Receipt", 40, 60);
    let y = 95;
    const rows = (list: Array<[string, string]>) => {
      for (const [label, value] of list) {
        doc.fontSize(9).text(label, 40, y);
        doc.text(value, 200, y);
        y += 16;
      }
    };
    rows(header);
    y += 8;
    doc.fontSize(11).text("Transaction Information", 40, y);
    y += 20;
    rows(info);
    y += 8;
    doc.fontSize(11).text("Transaction Details", 40, y);
    y += 20;
    // A three-column table: text extraction tends to glue the row together (docs/banks.md §2.7).
    doc.fontSize(9).text("Receipt Number", 40, y).text("Transaction Date", 200, y).text("Amount", 360, y);
    y += 16;
    doc.text(t.receiptNumber, 40, y).text(t.date, 200, y).text(t.amount, 360, y);
    y += 26;
    rows(totals);
    doc.end();
  });
}
