import { renderPdf } from "../../simulator/pdf.js";
import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

// Imitates https://share.zemenbank.com/rt/{token}/pdf (docs/banks.md §2.6): the receipt PDF with the labels
// of docs/banks.md (weak: unconfirmed on real receipts), and the miss answer
// HTTP 404 {"messages":"Transaction not found.","status":"404"}.

const ORIGIN = "share.zemenbank.com:443";

interface ZemenTransaction {
  token: string;
  invoiceNo: string;
  date: string;
  payerName: string;
  payerAccount: string;
  recipientName: string;
  recipientAccount: string;
  reference: string;
  status: string;
  detail: string;
  settled: string;
  serviceCharge: string;
  vat: string;
  total: string;
  inWords: string;
  /** "table": a "Transaction Detail | Settled Amount" header over the values; "pairs": label and value per line. */
  layout: "table" | "pairs";
  receipt: Receipt;
}

const TRANSACTIONS: ZemenTransaction[] = [
  {
    // The token of docs/banks.md §2.6; 25206 = 25 Jul 2025.
    token: "94497018108ATWR2520600HM",
    invoiceNo: "2520600871",
    date: "25-Jul-2025, 02:41:07 pm",
    payerName: "BEREKET ALEMAYEHU WOLDE",
    payerAccount: "1021******018",
    recipientName: "MAHLET GETACHEW ASSEFA",
    recipientAccount: "1031110045678010",
    reference: "108ATWR2520600HM",
    status: "SUCCESS",
    detail: "ACCOUNT TO ACCOUNT TRANSFER",
    settled: "ETB 1,600.00",
    serviceCharge: "10.00",
    vat: "1.50",
    total: "1,611.50",
    inWords: "ONE THOUSAND SIX HUNDRED ELEVEN BIRR AND FIFTY CENT(S)",
    layout: "table",
    receipt: {
      status: "completed",
      transactionType: "ACCOUNT TO ACCOUNT TRANSFER",
      amount: 1600,
      currency: "ETB",
      transactionDate: "2025-07-25T14:41:07+03:00",
      payerName: "BEREKET ALEMAYEHU WOLDE",
      payerAccount: "1021******018",
      receiverName: "MAHLET GETACHEW ASSEFA",
      receiverAccount: "1031110045678010",
      description: null,
    },
  },
  {
    // Date without time, label/value pairs, masked recipient; 26154 = 3 Jun 2026.
    token: "30115472107ETTB261540027",
    invoiceNo: "2615400314",
    date: "03-Jun-2026",
    payerName: "SAMUEL TEKLE HAILU",
    payerAccount: "1034******221",
    recipientName: "ABYSSINIA TRADING PLC",
    recipientAccount: "1052******907",
    reference: "107ETTB261540027",
    status: "Completed",
    detail: "ATM CASH WITHDRAWAL",
    settled: "ETB 2,000.00",
    serviceCharge: "0.00",
    vat: "0.00",
    total: "2,000.00",
    inWords: "TWO THOUSAND BIRR AND ZERO CENT(S)",
    layout: "pairs",
    receipt: {
      status: "completed",
      transactionType: "ATM CASH WITHDRAWAL",
      amount: 2000,
      currency: "ETB",
      transactionDate: "2026-06-03T00:00:00+03:00",
      payerName: "SAMUEL TEKLE HAILU",
      payerAccount: "1034******221",
      receiverName: "ABYSSINIA TRADING PLC",
      receiverAccount: "1052******907",
      description: null,
    },
  },
];

const NOT_FOUND = JSON.stringify({ messages: "Transaction not found.", status: "404" });

export const simulatedZemen: SimulatedBank = {
  code: "zemen",
  origins: [ORIGIN],
  examples: TRANSACTIONS.map(
    (t): SimExample => ({
      target: { transactionNumber: t.token, account: null, token: t.token },
      shareUrl: `https://share.zemenbank.com/rt/${t.token}/pdf`,
      // The receipt's "Reference No:", not the share token.
      reference: t.reference,
      receipt: t.receipt,
    }),
  ),
  notFound: {
    transactionNumber: "52710394108ATWR2530100QX",
    account: null,
    token: "52710394108ATWR2530100QX",
  },
  async handle(request: SimRequest): Promise<SimResponse> {
    const token = /^\/rt\/([^/]+)\/pdf$/.exec(request.path)?.[1];
    const transaction = TRANSACTIONS.find((t) => t.token === token);
    if (request.method !== "GET" || !transaction) {
      return { status: 404, headers: { "content-type": "application/json" }, body: NOT_FOUND };
    }
    return {
      status: 200,
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `inline; filename="${token}.pdf"`,
      },
      body: await renderReceipt(transaction),
    };
  },
};

// --- internal helpers ---

function renderReceipt(t: ZemenTransaction): Promise<Buffer> {
  return renderPdf((doc) => {
    let y = 50;
    const pair = (label: string, value: string, x = 50) => {
      doc.fontSize(10).text(`${label} ${value}`, x, y);
    };
    doc.fontSize(16).text("ZEMEN BANK", 50, y);
    doc.fontSize(9).text("Zemen Bank S.C. | TIN 0000041588", 330, y + 4);
    y += 30;
    doc.fontSize(12).text("Customer Transaction Receipt", 50, y);
    y += 26;
    pair("Invoice No.:", t.invoiceNo);
    pair("Date:", t.date, 330);
    y += 24;
    for (const [label, value] of [
      ["Payer name:", t.payerName],
      ["Payer account no.:", t.payerAccount],
      ["Recipient name:", t.recipientName],
      ["Recipient account no.:", t.recipientAccount],
      ["Reference No:", t.reference],
      ["Transaction status:", t.status],
    ] as const) {
      pair(label, value);
      y += 18;
    }
    y += 10;
    const money = (label: string, value: string) => {
      doc.fontSize(10).text(label, 50, y);
      doc.text(value, 330, y);
      y += 18;
    };
    if (t.layout === "table") {
      money("Transaction Detail", "Settled Amount");
      money(t.detail, t.settled);
    } else {
      money("Transaction Detail:", t.detail);
      money("Settled Amount", t.settled);
    }
    money("Service Charge ETB", t.serviceCharge);
    money("VAT 15% ETB", t.vat);
    money("Total Amount Paid ETB", t.total);
    y += 8;
    doc.fontSize(9).text(`Total amount in word: ${t.inWords}`, 50, y, { width: 480 });
  });
}
