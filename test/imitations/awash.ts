// An outsider's imitation of Awash's share-link receipts, written from docs/banks.md §2.4 (and §1.3–1.6)
// only: HTML at awashpay.awashbank.com:8225/-{base-36 transaction id}-{counter}, a 3-column table.info-table.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface AwashReceipt {
  header: string;
  customerName: string;
  accountNo: string;
  /** "Transaction Date" or "Transaction Time" (§2.4). */
  dateLabel: string;
  /** YYYY-MM-DD HH:mm:ss, with or without AM/PM (§1.6), Addis Ababa time. */
  date: string;
  type: string;
  /** `3,000 ETB`, `1000 ETB` or bare `800.00` (§1.5). */
  amount: string;
  charge: string;
  vat: string;
  /** The per-type rows, in the order the bank prints them. */
  details: [string, string][];
}

export const awashReceipts: Record<string, AwashReceipt> = {
  // 2KDL95Z0NR = 260607112275735 in base 36.
  "-2KDL95Z0NR-4U61O6": {
    header: "Transfer successful",
    customerName: "ALMAZ DEBEBE",
    accountNo: "01425******7400/BANK",
    dateLabel: "Transaction Date",
    date: "2026-06-07 11:22:41",
    type: "Send Money",
    amount: "3,000 ETB",
    charge: "0 ETB",
    vat: "0 ETB",
    details: [
      ["Sender Account", "01425******7400"],
      ["Sender Name", "ALMAZ DEBEBE"],
      ["Receiver Account", "01320******5521"],
      ["Receiver Name", "GETNET ABERA"],
      ["Reason", "rent"],
      ["Transaction ID", "260607112275735"],
    ],
  },
  // 2KCGUFT5ND = 260519150512345.
  "-2KCGUFT5ND-3Q8ZKT": {
    header: "Transaction Successful",
    customerName: "BIRUK TESHOME",
    accountNo: "01320******1188/BANK",
    dateLabel: "Transaction Date",
    date: "2026-05-19 03:05:53 PM",
    type: "IPS Bank Transfer",
    amount: "800.00",
    charge: "5.00",
    vat: "0.75",
    details: [
      ["Sender Name", "BIRUK TESHOME"],
      ["Sender Account", "01320******1188"],
      ["Beneficiary name", "SARA MOHAMMED"],
      ["Beneficiary Account", "1000******4471"],
      ["Beneficiary Bank", "Commercial Bank of Ethiopia"],
      ["Reason", "school fee"],
      ["Transaction ID", "260519150512345"],
    ],
  },
  // 2KESVZ1WFO = 260702093015412; a merchant payment prints no Transaction ID row.
  "-2KESVZ1WFO-1B7QXA": {
    header: "Transaction Successful",
    customerName: "HELEN WOLDE",
    accountNo: "0911******2233/WALLET",
    dateLabel: "Transaction Time",
    date: "2026-07-02 09:30:15 AM",
    type: "Merchant Payment",
    amount: "1000 ETB",
    charge: "0 ETB",
    vat: "0 ETB",
    details: [
      ["Merchant", "KALDIS COFFEE BOLE"],
      ["Till Number", "502113"],
      ["Reason", "Merchant Payment"],
      ["Sender Name", "HELEN WOLDE"],
    ],
  },
  // A pre-2026 token: its first part is the 12-character hex-like Transaction ID; date only (§1.6).
  "-E41AE0D86FFA-21XYYW": {
    header: "Transfer successful",
    customerName: "FIKRU ASSEFA",
    accountNo: "01320******0911/BANK",
    dateLabel: "Transaction Date",
    date: "2025-11-03",
    type: "Send To Bank",
    amount: "1,250 ETB",
    charge: "2 ETB",
    vat: "0.30 ETB",
    details: [
      ["Sender Account", "01320******0911"],
      ["Sender Name", "FIKRU ASSEFA"],
      ["Receiver Account", "1000******2231"],
      ["Receiver Name", "ZERIHUN TADESSE"],
      ["Reason", "tuition"],
      ["Transaction ID", "E41AE0D86FFA"],
    ],
  },
  // 2KGB4NRL2L = 260820164500077; a telebirr transfer names no receiver (§2.4). This one reads the block's
  // "Customer Name" as the telebirr customer paid (one outsider reading); the next one as the sender.
  "-2KGB4NRL2L-5D2HQM": {
    header: "Telebirr Transfer",
    customerName: "ALMAZ DEBEBE",
    accountNo: "01425******7400/BANK",
    dateLabel: "Transaction Date",
    date: "2026-08-20 04:45:00 PM",
    type: "Telebirr Transfer",
    amount: "450.00",
    charge: "1.00",
    vat: "0.15",
    details: [
      ["Phone Number", "2519****6677"],
      ["Customer Name", "MULUGETA BEKELE"],
      ["Source Account", "01425******7400"],
    ],
  },
  // 2KGB4NRL2M = 260820164500078.
  "-2KGB4NRL2M-5D2HQN": {
    header: "Telebirr Transfer",
    customerName: "ALMAZ DEBEBE",
    accountNo: "01425******7400/BANK",
    dateLabel: "Transaction Date",
    date: "2026-08-20 04:45:30 PM",
    type: "Telebirr Transfer",
    amount: "300.00",
    charge: "1.00",
    vat: "0.15",
    details: [
      ["Phone Number", "2519****6677"],
      ["Customer Name", "ALMAZ DEBEBE"],
      ["Source Account", "01425******7400"],
    ],
  },
};

function rows(pairs: [string, string][]): string {
  return pairs
    .map(([l, v]) => `<tr><td class="label">${l}</td><td>:</td><td class="value">${v}</td></tr>`)
    .join("\n");
}

function page(r: AwashReceipt): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Awash Bank Receipt</title></head>
<body><div class="receipt">
<h2 class="status">${r.header}</h2>
<h4>Company Information</h4>
<table class="info-table">
${rows([
  ["Company Name", "Awash Bank Share company"],
  ["TIN", "0000030100"],
  ["VAT Reg No", "17264"],
  ["Customer Name", r.customerName],
  ["Account No", r.accountNo],
  ["Branch", "Head Office"],
])}
</table>
<h4>Transaction/Payment Information</h4>
<table class="info-table">
${rows([
  [r.dateLabel, r.date],
  ["Transaction Type", r.type],
  ["Amount", r.amount],
  ["Charge", r.charge],
  ["VAT", r.vat],
  ...r.details,
])}
</table>
</div></body></html>`;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
}

export async function startAwash(): Promise<{ overrides: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const token = decodeURIComponent(new URL(req.url ?? "/", "http://awash.invalid").pathname.slice(1));
    // A token without its leading dash is refused by the WAF (§2.4).
    if (!/^-[0-9A-Z]+-[0-9A-Z]+$/.test(token)) {
      return send(res, 403, "<html><body><h1>403 Forbidden</h1></body></html>");
    }
    const receipt = awashReceipts[token];
    if (!receipt) return send(res, 200, "<html><body><h3>Receipt not found</h3></body></html>");
    send(res, 200, page(receipt));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    overrides: `awashpay.awashbank.com:8225=${base}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
