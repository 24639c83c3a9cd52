// An outsider's imitation of Safaricom M-Pesa Ethiopia's receipt service, written from docs/banks.md §2.8,
// §1.3, §1.5, §1.6 only.
// - GET /api/receipt/getReceipt?trxNo={ref}: JSON {responseCode:"0", responseDescription, base64Data} where
//   base64Data is the receipt PDF; a miss is JSON with responseCode other than "0".
// - GET /receipt/{ref}: the share page from the SMS (a web-app shell; the data comes from the API).
import type { IncomingMessage, ServerResponse } from "node:http";
import PDFDocument from "pdfkit";
import { type LoopbackImitation, serveImitation } from "./harness.js";

export interface MpesaTransaction {
  id: string;
  /** Rows of the PDF, label then value, as docs/banks.md names them. */
  rows: Array<[string, string]>;
}

export const mpesaTransactions: MpesaTransaction[] = [
  {
    // Layout exactly as docs/banks.md lists it: no separate amount line, TOTAL includes the fees.
    id: "UIK7P2QX4M",
    rows: [
      ["TRANSACTION ID", "UIK7P2QX4M"],
      ["RECEIPT NO", "1000845512"],
      ["TRANSACTION DATE", "2026-07-24 11:53:57 EAT"],
      ["TRANSACTION TYPE", "Send Money"],
      ["PAYER NAME", "MERON GIRMA"],
      ["PAYER PHONE NUMBER", "251714123707"],
      ["RECEIVER NAME", "DAWIT LEMMA"],
      ["RECEIVER NUMBER", "251700987654"],
      ["SERVICE FEE", "5.00"],
      ["15% VAT", "0.75"],
      ["TOTAL", "1,255.75"],
    ],
  },
  {
    // A merchant payment with no fee and an explicit AMOUNT line as well.
    id: "UJ3BN8TR6E",
    rows: [
      ["TRANSACTION ID", "UJ3BN8TR6E"],
      ["RECEIPT NO", "1000902277"],
      ["TRANSACTION DATE", "2026-08-02 19:04:11"],
      ["TRANSACTION TYPE", "Pay Merchant"],
      ["PAYER NAME", "SOLOMON ABERA"],
      ["PAYER PHONE NUMBER", "251712555018"],
      ["RECEIVER NAME", "BOLE FRESH MARKET"],
      ["RECEIVER NUMBER", "700452"],
      ["AMOUNT", "2,400.00"],
      ["SERVICE FEE", "0.00"],
      ["15% VAT", "0.00"],
      ["TOTAL", "2,400.00"],
    ],
  },
  {
    id: "UK9WD5CS1H",
    rows: [
      ["TRANSACTION ID", "UK9WD5CS1H"],
      ["RECEIPT NO", "1000911930"],
      ["TRANSACTION DATE", "2026-08-05 07:30:00 EAT"],
      ["TRANSACTION TYPE", "Send Money"],
      ["PAYER NAME", "FIKIRTE DEMISSIE"],
      ["PAYER PHONE NUMBER", "251719004412"],
      ["RECEIVER NAME", "DAWIT LEMMA"],
      ["RECEIVER NUMBER", "251700987654"],
      ["SERVICE FEE", "1.00"],
      ["15% VAT", "0.15"],
      ["TOTAL", "201.15"],
    ],
  },
];

export type BankImitation = LoopbackImitation;

export function startMpesaImitation(): Promise<BankImitation> {
  return serveImitation(["m-pesabusiness.safaricom.et:443"], handle);
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://x");
  if (url.pathname.startsWith("/receipt/")) {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      '<!doctype html><html><head><title>M-PESA Receipt</title></head><body><div id="app"></div></body></html>',
    );
    return;
  }
  const found =
    url.pathname === "/api/receipt/getReceipt" &&
    mpesaTransactions.find((t) => t.id === url.searchParams.get("trxNo"));
  response.writeHead(200, { "content-type": "application/json" });
  if (!found) {
    response.end(
      JSON.stringify({ responseCode: "1", responseDescription: "No record found", base64Data: null }),
    );
    return;
  }
  const pdf = await renderReceipt(found);
  response.end(
    JSON.stringify({ responseCode: "0", responseDescription: "Success", base64Data: pdf.toString("base64") }),
  );
}

function renderReceipt(t: MpesaTransaction): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [300, 520], margin: 20 });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(16).text("M-PESA", 20, 20);
    doc.fontSize(9).text("Safaricom Telecommunications Ethiopia PLC", 20, 42);
    let y = 80;
    for (const [label, value] of t.rows) {
      doc.fontSize(8).text(label, 20, y);
      doc.text(value, 150, y);
      y += 18;
    }
    doc.fontSize(8).text("Thank you for using M-PESA", 20, y + 20);
    doc.end();
  });
}
