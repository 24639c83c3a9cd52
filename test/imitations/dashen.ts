// An outsider's imitation of Dashen's receipt host, written from docs/banks.md §2.3 (and §1.3–1.6) only:
// server HTML at receipts.dashenbanksc.com/receipt/{FT Ref}; the old hosts answer 502 as they do now.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface DashenReceipt {
  senderName: string;
  senderAccount: string;
  serviceType: string;
  narrative: string;
  receiverName: string;
  bankName?: string;
  receiverAccount?: string;
  phone?: string;
  transferReference: string;
  /** Mon D, YYYY, hh:mm:ss am (§1.6), Addis Ababa time. */
  date: string;
  /** `ETB 20,475.00` (§1.5); [label, value] rows of the amount table. */
  amounts: [string, string][];
}

export const dashenReceipts: Record<string, DashenReceipt> = {
  B22WDTI261620001: {
    senderName: "MARTHA GIRMA ALEMU",
    senderAccount: "2912******911",
    serviceType: "Within Dashen Transfer",
    narrative: "Supplier payment June",
    receiverName: "ETHIO FRESH FOODS PLC",
    bankName: "Dashen Bank",
    receiverAccount: "5031******427",
    transferReference: "WDTI5921680061225851717",
    date: "Jun 11, 2026, 08:45:50 am",
    amounts: [
      ["Transaction Amount", "ETB 20,475.00"],
      ["Service Charge", "ETB 0.00"],
      ["Excise Tax (15%)", "ETB 0.00"],
      ["DRRF Fee", "ETB 0.00"],
      ["VAT (15%)", "ETB 0.00"],
      ["Penalty Fee", "ETB 0.00"],
      ["Income Tax Fee", "ETB 0.00"],
      ["Interest Fee", "ETB 0.00"],
      ["Stamp Duty", "ETB 0.00"],
      ["Discount Amount", "ETB 0.00"],
      ["Total", "ETB 20,475.00"],
    ],
  },
  "822LTWS2622600WJ": {
    senderName: "TIGIST WORKU",
    senderAccount: "5004******218",
    serviceType: "Dashen to telebirr Transfer",
    narrative: "family support",
    receiverName: "BEREKET ALEMAYEHU",
    bankName: "telebirr",
    phone: "2519****3344",
    transferReference: "LTWS2845567912632066",
    date: "Aug 14, 2026, 03:12:09 pm",
    amounts: [
      ["Transaction Amount", "ETB 1,500.00"],
      ["Service Charge", "ETB 5.00"],
      ["Excise Tax (15%)", "ETB 0.75"],
      ["DRRF Fee", "ETB 0.25"],
      ["VAT (15%)", "ETB 0.00"],
      ["Total", "ETB 1,506.00"],
    ],
  },
  "110IPSS2616900WO": {
    senderName: "SOLOMON DEMISSIE",
    senderAccount: "2912******305",
    serviceType: "IPS Transfer",
    narrative: "loan repayment",
    receiverName: "HIRUT KASSA",
    bankName: "Awash Bank",
    receiverAccount: "01320******8800",
    transferReference: "IPSS2616900987654321",
    date: "Jun 18, 2026, 10:23:00 am",
    amounts: [
      ["Transaction Amount", "ETB 100.00"],
      ["Service Charge", "ETB 0.40"],
      ["VAT (15%)", "ETB 0.06"],
      ["DRRF Fee", "ETB 0.02"],
      ["Total", "ETB 100.48"],
    ],
  },
};

function field(label: string, value: string | undefined): string {
  return value === undefined ? "" : `<p><strong>${label}:</strong> ${value}</p>`;
}

function page(ref: string, r: DashenReceipt): string {
  const amounts = r.amounts.map(([l, v]) => `<tr><td>${l}</td><td>${v}</td></tr>`).join("\n");
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Dashen Bank Receipt</title></head>
<body><div class="receipt">
<h2>Dashen Bank S.C.</h2><h3>Transaction Receipt</h3>
${field("Sender Name", r.senderName)}
${field("Sender Account Number", r.senderAccount)}
${field("Transaction Channel", "Dashen Bank Super App")}
${field("Service Type", r.serviceType)}
${field("Narrative", r.narrative)}
${field("Receiver Name", r.receiverName)}
${field("Beneficiary Bank Name", r.bankName)}
${field("Receiver Account Number", r.receiverAccount)}
${field("Phone No", r.phone)}
${field("Transaction Reference", ref)}
${field("Transfer Reference", r.transferReference)}
${field("Transaction Date", r.date)}
<table class="amounts">
${amounts}
</table>
<button id="download">Download Receipt</button>
</div></body></html>`;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** The current host, plus one server for both old hosts that only ever answers 502 (§2.3). */
export async function startDashen(): Promise<{
  overrides: string;
  oldHostHits: string[];
  close(): Promise<void>;
}> {
  const current = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://dashen.invalid").pathname;
    const match = /^\/receipt\/([^/]+)$/.exec(path);
    const ref = match?.[1] ? decodeURIComponent(match[1]) : "";
    const receipt = dashenReceipts[ref];
    if (!receipt) {
      send(
        res,
        400,
        "application/json",
        JSON.stringify({ statusCode: 400, message: "Transaction not found" }),
      );
      return;
    }
    send(res, 200, "text/html; charset=utf-8", page(ref, receipt));
  });
  const oldHostHits: string[] = [];
  const old = createServer((req, res) => {
    oldHostHits.push(req.url ?? "");
    send(res, 502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>");
  });
  const currentBase = await listen(current);
  const oldBase = await listen(old);
  return {
    overrides: [
      `receipts.dashenbanksc.com:443=${currentBase}`,
      `receipt.dashensuperapp.com:443=${oldBase}`,
      `api.dashensuperapp.com:443=${oldBase}`,
    ].join(","),
    oldHostHits,
    close: async () => {
      await stop(current);
      await stop(old);
    },
  };
}
