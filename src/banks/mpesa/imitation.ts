import { renderPdf } from "../../simulator/pdf.js";
import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

// Imitates GET https://m-pesabusiness.safaricom.et/api/receipt/getReceipt?trxNo={trx} (docs/banks.md §2.8):
// JSON {responseCode, responseDescription, base64Data} where base64Data is the receipt PDF.
// The PDF is drawn with the standard Helvetica font, which has no Ethiopic glyphs, so only the English
// halves of the bilingual labels are printed; the adapter's unit tests cover the bilingual text.

const ORIGIN = "m-pesabusiness.safaricom.et:443";

interface MpesaTransaction {
  trx: string;
  receiptNo: string;
  type: string;
  date: string;
  payerName: string;
  payerPhone: string;
  receiverName: string;
  receiverNumber: string;
  serviceFee: string;
  vat: string;
  total: string;
  /** The real receipts print the fees before their labels ("1.00 Birr / SERVICE FEE / ... + 15% VAT"). */
  feesFirst: boolean;
  receipt: Receipt;
}

const TRANSACTIONS: MpesaTransaction[] = [
  {
    // The SMS of docs/banks.md §2.8: 2.00 Birr sent on 24/7/26 at 11:53 AM, fee 0.00.
    trx: "UGO4D2CODA",
    receiptNo: "6E52A1F0C93B4D7E",
    type: "Send Money",
    date: "2026-07-24 11:53:57",
    payerName: "YONAS TADESSE GEBRE",
    payerPhone: "251712480315",
    receiverName: "TESFAYE ADARE WELDEKIDAN",
    receiverNumber: "251714302707",
    serviceFee: "0.00",
    vat: "0.00",
    total: "2.00",
    feesFirst: false,
    receipt: {
      status: "completed",
      transactionType: "Send Money",
      amount: 2,
      currency: "ETB",
      transactionDate: "2026-07-24T11:53:57+03:00",
      payerName: "YONAS TADESSE GEBRE",
      payerAccount: "251712480315",
      receiverName: "TESFAYE ADARE WELDEKIDAN",
      receiverAccount: "251714302707",
      description: null,
    },
  },
  {
    trx: "UFS98HOPQJ",
    receiptNo: "9A0C44B7E1D25F63",
    type: "Pay Merchant",
    date: "2026-06-28 19:04:12",
    payerName: "YONAS TADESSE GEBRE",
    payerPhone: "251712480315",
    receiverName: "BOLE FRESH MINI MARKET",
    receiverNumber: "5104417",
    serviceFee: "0.00",
    vat: "0.00",
    total: "5.00",
    feesFirst: false,
    receipt: {
      status: "completed",
      transactionType: "Pay Merchant",
      amount: 5,
      currency: "ETB",
      transactionDate: "2026-06-28T19:04:12+03:00",
      payerName: "YONAS TADESSE GEBRE",
      payerAccount: "251712480315",
      receiverName: "BOLE FRESH MINI MARKET",
      receiverAccount: "5104417",
      description: null,
    },
  },
  {
    // A send with fees: TOTAL includes SERVICE FEE and 15% VAT, the transferred amount does not.
    trx: "SJ72HK3YZ9",
    receiptNo: "1F7D09C2A86E3B45",
    type: "Send Money",
    date: "2026-09-03 08:15:40",
    payerName: "MERON ASFAW KEBEDE",
    payerPhone: "251700918264",
    receiverName: "HIRUT BEKELE DESTA",
    receiverNumber: "251711556043",
    serviceFee: "5.00",
    vat: "0.75",
    total: "1,255.75",
    feesFirst: true,
    receipt: {
      status: "completed",
      transactionType: "Send Money",
      amount: 1250,
      currency: "ETB",
      transactionDate: "2026-09-03T08:15:40+03:00",
      payerName: "MERON ASFAW KEBEDE",
      payerAccount: "251700918264",
      receiverName: "HIRUT BEKELE DESTA",
      receiverAccount: "251711556043",
      description: null,
    },
  },
];

export const simulatedMpesa: SimulatedBank = {
  code: "mpesa",
  origins: [ORIGIN],
  examples: TRANSACTIONS.map(
    (t): SimExample => ({
      target: { transactionNumber: t.trx, account: null, token: null },
      shareUrl: `https://m-pesabusiness.safaricom.et/receipt/${t.trx}`,
      // The TRANSACTION ID of the receipt, not its internal RECEIPT NO.
      reference: t.trx,
      receipt: t.receipt,
    }),
  ),
  notFound: { transactionNumber: "UKX3M8PQ2T", account: null, token: null },
  async handle(request: SimRequest): Promise<SimResponse> {
    if (request.method !== "GET" || request.path !== "/api/receipt/getReceipt") {
      return { status: 404, headers: { "content-type": "text/html" }, body: "<h1>404 Not Found</h1>" };
    }
    const trx = request.query.get("trxNo") ?? "";
    const transaction = TRANSACTIONS.find((t) => t.trx === trx);
    const payload = transaction
      ? {
          responseCode: "0",
          responseDescription: "Success",
          base64Data: (await renderReceipt(transaction)).toString("base64"),
        }
      : { responseCode: "1", responseDescription: "Receipt not found", base64Data: null };
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(payload) };
  },
};

// --- internal helpers ---

function renderReceipt(t: MpesaTransaction): Promise<Buffer> {
  return renderPdf((doc) => {
    let y = 60;
    const line = (label: string, value: string) => {
      doc.fontSize(9).fillColor("#555555").text(label, 60, y);
      doc.fontSize(10).fillColor("#000000").text(value, 260, y);
      y += 22;
    };
    doc.fontSize(18).fillColor("#00a651").text("M-PESA", 60, y);
    y += 28;
    doc.fontSize(12).fillColor("#000000").text(t.type, 60, y);
    doc.fontSize(10).text(`${t.date} EAT`, 260, y);
    y += 30;
    line("RECEIPT NO", t.receiptNo);
    line("TRANSACTION ID", t.trx);
    line("PAYER NAME", t.payerName);
    line("PAYER PHONE NUMBER", t.payerPhone);
    line("RECEIVER NAME", t.receiverName);
    line("RECEIVER NUMBER", t.receiverNumber);
    if (t.feesFirst) {
      doc.fontSize(9).text(`${t.serviceFee} Birr / SERVICE FEE / ${t.vat} Birr + 15% VAT`, 60, y);
      y += 22;
    } else {
      line("SERVICE FEE", `${t.serviceFee} Birr`);
      line("15% VAT", `${t.vat} Birr`);
    }
    line("TOTAL", t.total);
    y += 20;
    doc.fontSize(8).fillColor("#555555").text("Safaricom Telecommunications Ethiopia PLC", 60, y);
  });
}
