// An outsider's imitation of telebirr's receipt page, written from docs/banks.md §2.2 (and §1.3–1.6) only:
// bilingual server HTML at /receipt/{ref}, the invoice details as a header row over a value row.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface TelebirrReceipt {
  payerName: string;
  payerPhone: string;
  creditedName: string;
  creditedAccount: string;
  bankAccount?: string;
  /** DD-MM-YYYY HH:mm:ss, Addis Ababa time (§1.6). */
  date: string;
  /** `1100.00 Birr` or `100 Birr` (§1.5). */
  settled: string;
  serviceFee: string;
  serviceFeeVat: string;
  total: string;
  words: string;
  reason: string;
  channel: string;
}

export const telebirrReceipts: Record<string, TelebirrReceipt> = {
  DFH51OFIED: {
    payerName: "ABEBECH TESFAYE GEBRE",
    payerPhone: "2519****2872",
    creditedName: "YONAS BIRHANU",
    creditedAccount: "2519****4025",
    date: "17-06-2026 18:14:15",
    settled: "60.00 Birr",
    serviceFee: "0.87 Birr",
    serviceFeeVat: "0.13 Birr",
    total: "61.00 Birr",
    words: "Sixty One Birr",
    reason: "Send Money to Registered Customer",
    channel: "App",
  },
  DGS2BT1W54: {
    payerName: "KIDIST HAILE",
    payerPhone: "2519****7310",
    creditedName: "MEKONNEN ASFAW",
    creditedAccount: "0003",
    bankAccount: "1000123456789 MEKONNEN ASFAW",
    date: "02-07-2026 09:03:41",
    settled: "2500 Birr",
    serviceFee: "8.70 Birr",
    serviceFeeVat: "1.30 Birr",
    total: "2510 Birr",
    words: "Two Thousand Five Hundred Ten Birr",
    reason: "Customer Transfer from Mobile Money to Bank",
    channel: "API",
  },
  // An older 9-character reference (§2.2).
  CCP9E4VIT: {
    payerName: "SAMUEL TADESSE",
    payerPhone: "2519****1145",
    creditedName: "LIYA COFFEE HOUSE",
    creditedAccount: "2519****8830",
    date: "18-07-2025 19:58:20",
    settled: "1100.00 Birr",
    serviceFee: "0.00 Birr",
    serviceFeeVat: "0.00 Birr",
    total: "1100.00 Birr",
    words: "One Thousand One Hundred Birr",
    reason: "Send Money to Registered Customer",
    channel: "App",
  },
};

function row(label: string, value: string): string {
  return `<tr><td class="receipttableTd receipttableTd2">${label}</td><td class="receipttableTd receipttableTd2">${value}</td></tr>`;
}

function feeRow(label: string, value: string): string {
  return `<tr><td class="receipttableTd" colspan="2">${label}</td><td class="receipttableTd receipttableTd2">${value}</td></tr>`;
}

function page(ref: string, r: TelebirrReceipt): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>telebirr receipt</title></head>
<body>
<div class="header"><h3>ኢትዮ ቴሌኮም/Ethio telecom</h3><p>TIN: 0000030603 VAT Reg No: 012700</p>
<h4>የቴሌብር የክፍያ መረጃ/telebirr receipt</h4></div>
<table class="receipttable">
${row("የከፋይ ስም/Payer Name", r.payerName)}
${row("የከፋይ ቴሌብር ቁ./Payer telebirr no.", r.payerPhone)}
${row("የከፋይ አካውንት አይነት/Payer account type", "Individual Customer")}
${row("የከፋይ ግብር ከፋይ መለያ ቁ./Payer TIN No", "")}
${row("የገንዘብ ተቀባይ ስም/Credited Party name", r.creditedName)}
${row("የገንዘብ ተቀባይ ቴሌብር ቁ./Credited party account no", r.creditedAccount)}
${row("የክፍያው ሁኔታ/transaction status", "Completed")}
${r.bankAccount ? row("የባንክ አካውንት ቁጥር/Bank account number", r.bankAccount) : ""}
</table>
<table class="receipttable">
<tr><td class="receipttableTd1" colspan="3">የክፍያ ዝርዝር/ Invoice details</td></tr>
<tr><td class="receipttableTd1">የክፍያ ቁጥር/Invoice No.</td><td class="receipttableTd1">የክፍያ ቀን/Payment date</td><td class="receipttableTd1">የተከፈለው መጠን/Settled Amount</td></tr>
<tr><td class="receipttableTd receipttableTd2">${ref}</td><td class="receipttableTd receipttableTd2">${r.date}</td><td class="receipttableTd receipttableTd2">${r.settled}</td></tr>
${feeRow("የቴምብር ቀረጥ/Stamp Duty", "0.00 Birr")}
${feeRow("ቅናሽ/Discount Amount", "0.00 Birr")}
${feeRow("የአገልግሎት ክፍያ/Service fee", r.serviceFee)}
${feeRow("የአገልግሎት ክፍያ ተ.እ.ታ/Service fee VAT", r.serviceFeeVat)}
${feeRow("ጠቅላላ የተክፈለ/Total Paid Amount", r.total)}
${feeRow("የገንዘቡ ልክ በፊደል/Total Amount in word", r.words)}
${feeRow("የክፍያ ዘዴ/Payment Mode", "telebirr")}
${feeRow("የክፍያ ምክንያት/Payment Reason", r.reason)}
${feeRow("የክፍያ መንገድ/Payment channel", r.channel)}
${feeRow("ማስታወሻ/Customer Note", "")}
</table>
<p>Scan the QR using telebirr SuperApp to verify the payment</p>
</body></html>`;
}

const miss = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Receipt</title></head>
<body><div class="error"><h4>This request is not correct</h4></div></body></html>`;

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
}

/** One loopback server for transactioninfo.ethiotelecom.et and the weak apps.ethiotelecom.et form. */
export async function startTelebirr(): Promise<{ overrides: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://telebirr.invalid").pathname;
    const match = /^\/receipt\/([^/]+)$/.exec(path);
    const receipt = match?.[1] ? telebirrReceipts[decodeURIComponent(match[1])] : undefined;
    // The bank answers a miss with a normal page (§1.3), so 200 either way.
    if (!match?.[1] || !receipt) return send(res, 200, miss);
    send(res, 200, page(decodeURIComponent(match[1]), receipt));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    overrides: `transactioninfo.ethiotelecom.et:443=${base},apps.ethiotelecom.et:443=${base}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
