// An outsider's imitation of Zemen Bank's receipt share host, written from docs/banks.md §2.6, §1.3, §1.5,
// §1.6 only: GET https://share.zemenbank.com/rt/{24-char token}/pdf answers a PDF receipt; anything else is
// the documented miss, HTTP 404 JSON {"messages":"Transaction not found.","status":"404"}.
import type { IncomingMessage, ServerResponse } from "node:http";
import PDFDocument from "pdfkit";
import { type LoopbackImitation, serveImitation } from "./harness.js";

export interface ZemenTransaction {
  /** 24 chars: 8-char prefix + the 16-char reference (docs/banks.md §2.6). */
  token: string;
  reference: string;
  /** As printed after "Date" (DD-Mon-YYYY[, hh:mm:ss am]). */
  printedDate: string;
  payerName: string;
  payerAccount: string;
  recipientName: string;
  recipientAccount: string;
  status: string;
  detail: string;
  settled: string;
  serviceCharge: string;
  vat: string;
  total: string;
  inWords: string;
  /** Label and value drawn as one text run ("Payer name: X") instead of two columns. */
  oneRun?: boolean;
}

// Tokens carry YYDDD (§1.1): 26247 = 4 Sep 2026, 26261 = 18 Sep 2026, 26263 = 20 Sep 2026.
export const zemenTransactions: ZemenTransaction[] = [
  {
    token: "52817364214ATWR2624700QK",
    reference: "214ATWR2624700QK",
    printedDate: "04-Sep-2026, 03:12:45 pm",
    payerName: "ABEBE KEBEDE TADESSE",
    payerAccount: "1052********1017",
    recipientName: "SELAM TRADING PLC",
    recipientAccount: "1021410067493015",
    status: "Completed",
    detail: "FUND TRANSFER TO SELAM TRADING PLC ETB 1,500.00",
    settled: "1,500.00",
    serviceCharge: "5.00",
    vat: "0.75",
    total: "1,505.75",
    inWords: "ONE THOUSAND FIVE HUNDRED FIVE BIRR AND SEVENTY FIVE CENT(S)",
  },
  {
    token: "73015529031ATWR2626100ZX",
    reference: "031ATWR2626100ZX",
    printedDate: "18-Sep-2026",
    payerName: "HIRUT ALEMU GEBRE",
    payerAccount: "1031********4420",
    recipientName: "SELAM TRADING PLC",
    recipientAccount: "1021410067493015",
    status: "Successful",
    detail: "FUND TRANSFER TO SELAM TRADING PLC ETB 25,000.00",
    settled: "25,000.00",
    serviceCharge: "15.00",
    vat: "2.25",
    total: "25,017.25",
    inWords: "TWENTY FIVE THOUSAND SEVENTEEN BIRR AND TWENTY FIVE CENT(S)",
  },
  {
    token: "60918342117ATWR2626300MB",
    reference: "117ATWR2626300MB",
    printedDate: "20-Sep-2026, 09:05:03 am",
    payerName: "YONAS BEKELE",
    payerAccount: "1066********9081",
    recipientName: "SELAM TRADING PLC",
    recipientAccount: "1021410067493015",
    status: "Completed",
    detail: "FUND TRANSFER TO SELAM TRADING PLC ETB 760.00",
    settled: "760.00",
    serviceCharge: "0.00",
    vat: "0.00",
    total: "760.00",
    inWords: "SEVEN HUNDRED SIXTY BIRR AND ZERO CENT(S)",
    oneRun: true,
  },
];

export type BankImitation = LoopbackImitation;

export function startZemenImitation(): Promise<BankImitation> {
  return serveImitation(["share.zemenbank.com:443"], handle);
}

/** A token the bank once issued whose link has expired (docs/banks.md §2.6: the 404 also says so). */
export const expiredZemenToken = "48120937205ATWR2615100KD";

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  const match = /^\/rt\/([^/]+)\/pdf$/.exec(path);
  if (match?.[1] === expiredZemenToken) {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ messages: "This link has expired.", status: "404" }));
    return;
  }
  const found = match && request.method === "GET" && zemenTransactions.find((t) => t.token === match[1]);
  if (!found) {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ messages: "Transaction not found.", status: "404" }));
    return;
  }
  const pdf = await renderReceipt(found);
  response.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length });
  response.end(pdf);
}

/** The labels of docs/banks.md §2.6 in receipt order, label and value on one line like a two-column slip. */
function renderReceipt(t: ZemenTransaction): Promise<Buffer> {
  const rows: Array<[string, string]> = [
    ["Invoice No.", t.token.slice(0, 8)],
    ["Date", t.printedDate],
    ["Payer name:", t.payerName],
    ["Payer account no.:", t.payerAccount],
    ["Recipient name:", t.recipientName],
    ["Recipient account no.:", t.recipientAccount],
    ["Reference No:", t.reference],
    ["Transaction status:", t.status],
    ["Transaction Detail", t.detail],
    ["Settled Amount", t.settled],
    ["Service Charge ETB", t.serviceCharge],
    ["VAT 15% ETB", t.vat],
    ["Total Amount Paid ETB", t.total],
    ["Total amount in word:", t.inWords],
  ];
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 50 });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(16).text("Zemen Bank S.C.", 50, 50);
    doc.fontSize(11).text("Customer Transaction Receipt", 50, 72);
    let y = 110;
    for (const [label, value] of rows) {
      if (t.oneRun) {
        doc.fontSize(10).text(`${label} ${value}`, 50, y);
      } else {
        doc.fontSize(10).text(label, 50, y);
        doc.text(value, 230, y);
      }
      y += 20;
    }
    doc.end();
  });
}
