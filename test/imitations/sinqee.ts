// An outsider's imitation of Siinqee Bank's receipt pages, written from docs/banks.md §2.9, §1.3 only. No
// real layout is known (Weak), so the receipts are plausible key/value HTML in two styles.
// - siinqeebank.com/receipt/{ref}: the newer receipt page (HTML). docs/banks.md documents no miss answer for
//   this host; the imitation uses the eBirr platform's (HTTP 200 "Not Found Page", red H1), where
//   Siinqee's receipts came from.
// - receipt.ebirr.com/siinqee/{token}: the old route, HTTP 404 text/plain "Cannot GET /siinqee/…" (Oct 2026).
import type { IncomingMessage, ServerResponse } from "node:http";
import { type LoopbackImitation, serveImitation } from "./harness.js";

export interface SinqeeTransaction {
  reference: string;
  html: string;
}

const tableReceipt = (rows: Array<[string, string]>) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Siinqee Bank - Transaction Receipt</title></head>
<body><div class="receipt-container">
<div class="header"><img src="/images/siinqee-logo.png" alt="Siinqee Bank"><h2>Siinqee Bank S.C.</h2>
<h3>Transaction Receipt</h3></div>
<table class="receipt-table">
${rows.map(([label, value]) => `  <tr><td class="label">${label}</td><td class="value">${value}</td></tr>`).join("\n")}
</table>
<p class="footer">Thank you for banking with Siinqee Bank.</p></div></body></html>`;

const strongReceipt = (rows: Array<[string, string]>) => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Receipt | Siinqee Bank</title></head>
<body><main class="container">
<h1>Siinqee Bank</h1><h4>Baankii Siinqee W.A.</h4>
<section class="details">
${rows.map(([label, value]) => `  <p><strong>${label}:</strong> ${value}</p>`).join("\n")}
</section></main></body></html>`;

// FT + YYDDD + 5: 26250 = 7 Sep 2026, 26253 = 10 Sep 2026, 26258 = 15 Sep 2026.
export const sinqeeTransactions: SinqeeTransaction[] = [
  {
    reference: "FT26250R4K2M",
    html: tableReceipt([
      ["Transaction Reference", "FT26250R4K2M"],
      ["Transaction Date", "Sep 07, 2026 02:32 PM"],
      ["Payer Name", "GEMECHU TOLERA DIBABA"],
      ["Payer Account", "1000*****4821"],
      ["Receiver Name", "OROMIA AGRO TRADING PLC"],
      ["Receiver Account", "1000312456789"],
      ["Transaction Type", "Fund Transfer"],
      ["Amount", "ETB 2,350.00"],
      ["Service Charge", "ETB 5.00"],
      ["VAT (15%)", "ETB 0.75"],
      ["Total Amount", "ETB 2,355.75"],
      ["Status", "Completed"],
      ["Narrative", "Payment for fertilizer"],
    ]),
  },
  {
    reference: "FT26253Q8P1N",
    html: strongReceipt([
      ["Sender Name", "CHALTU BEKELE"],
      ["Sender Account", "1000*****0307"],
      ["Beneficiary Name", "OROMIA AGRO TRADING PLC"],
      ["Beneficiary Account", "1000312456789"],
      ["Transaction Reference", "FT26253Q8P1N"],
      ["Transaction Date", "2026-09-10 08:15:42"],
      ["Transferred Amount", "9,800.00 ETB"],
      ["Service Charge", "0.00 ETB"],
      ["Total", "9,800.00 ETB"],
      ["Transaction Status", "Success"],
      ["Reason", "Seeds"],
    ]),
  },
  {
    reference: "FT26258H3T6W",
    html: tableReceipt([
      ["Transaction Reference", "FT26258H3T6W"],
      ["Transaction Date", "Sep 15, 2026 10:02 AM"],
      ["Payer Name", "ABDI MOHAMMED"],
      ["Payer Account", "1000*****7714"],
      ["Receiver Name", "OROMIA AGRO TRADING PLC"],
      ["Receiver Account", "1000312456789"],
      ["Transaction Type", "Fund Transfer"],
      ["Amount", "ETB 640.00"],
      ["Service Charge", "ETB 0.00"],
      ["VAT (15%)", "ETB 0.00"],
      ["Total Amount", "ETB 640.00"],
      ["Status", "Completed"],
      ["Narrative", "Tools"],
    ]),
  },
];

export type BankImitation = LoopbackImitation;

// One server stands for both hosts: their paths (/receipt/… and /siinqee/…) do not overlap.
export function startSinqeeImitation(): Promise<BankImitation> {
  return serveImitation(["siinqeebank.com:443", "receipt.ebirr.com:443"], handle);
}

const NOT_FOUND_PAGE = `<!DOCTYPE html><html><head><title>Not Found Page</title></head>
<body><h1 style="color:red">Not Found Page</h1></body></html>`;

function handle(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  if (!path.startsWith("/receipt/")) {
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    response.end(`Cannot GET ${path}`);
    return;
  }
  const found = sinqeeTransactions.find((t) => `/receipt/${t.reference}` === path);
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(found ? found.html : NOT_FOUND_PAGE);
}
