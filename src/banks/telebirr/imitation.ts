import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

// Imitates https://transactioninfo.ethiotelecom.et/receipt/{ref} (docs/banks.md §2.2): a server-rendered
// page of bilingual "Amharic/English" label cells (receipttableTd*), the invoice table laid out as a
// header row of labels above a row of values, amounts as "1100.00 Birr" or "100 Birr".

const ORIGIN = "transactioninfo.ethiotelecom.et:443";

interface TelebirrTransaction {
  reference: string;
  payerName: string;
  payerPhone: string;
  creditedName: string;
  creditedAccount: string;
  /** Present only for payments to a bank account: "account  holder". */
  bankAccount?: string;
  status: string;
  date: string;
  settled: string;
  serviceFee: string;
  serviceFeeVat: string;
  totalPaid: string;
  amountInWords: string;
  reason: string;
  channel: string;
  note: string;
  receipt: Receipt;
}

const TRANSACTIONS: TelebirrTransaction[] = [
  {
    // The SMS of docs/banks.md §2.2: ETB 60.00 to a wallet on 17/06/2026 18:14:15.
    reference: "DFH51OFIED",
    payerName: "Dawit Mekonnen Bekele",
    payerPhone: "2519****2872",
    creditedName: "Hana Tesfaye Alemu",
    creditedAccount: "2519****4025",
    bankAccount: "",
    status: "Completed",
    date: "17-06-2026 18:14:15",
    settled: "60.00 Birr",
    serviceFee: "0.00 Birr",
    serviceFeeVat: "0.00 Birr",
    totalPaid: "60.00 Birr",
    amountInWords: "Sixty Birr & Zero Cents",
    reason: "Send Money to Registered Customer",
    channel: "App",
    note: "",
    receipt: {
      status: "completed",
      transactionType: "Send Money to Registered Customer",
      amount: 60,
      currency: "ETB",
      transactionDate: "2026-06-17T18:14:15+03:00",
      payerName: "Dawit Mekonnen Bekele",
      payerAccount: "2519****2872",
      receiverName: "Hana Tesfaye Alemu",
      receiverAccount: "2519****4025",
      description: null,
    },
  },
  {
    // Paid to a bank: the credited party is the bank's internal code; the real account is in "Bank account number".
    reference: "DET8FJGUJ4",
    payerName: "Selamawit Girma Tadesse",
    payerPhone: "2519****7311",
    creditedName: "Commercial Bank of Ethiopia",
    creditedAccount: "0003",
    bankAccount: "1000370251685   Mohammed Abdulwasi Reshid",
    status: "Completed",
    date: "18-07-2025 19:58:20",
    settled: "1100.00 Birr",
    serviceFee: "5.22 Birr",
    serviceFeeVat: "0.78 Birr",
    totalPaid: "1106.00 Birr",
    amountInWords: "One Thousand One Hundred Six Birr & Zero Cents",
    reason: "Customer Transfer from Mobile Money to Bank",
    channel: "API",
    note: "Rent July",
    receipt: {
      status: "completed",
      transactionType: "Customer Transfer from Mobile Money to Bank",
      amount: 1100,
      currency: "ETB",
      transactionDate: "2025-07-18T19:58:20+03:00",
      payerName: "Selamawit Girma Tadesse",
      payerAccount: "2519****7311",
      receiverName: "Mohammed Abdulwasi Reshid",
      receiverAccount: "1000370251685",
      description: "Rent July",
    },
  },
  {
    // An older 9-character reference, whole-birr amount without decimals, no bank-account row.
    reference: "CCP9E4VIT",
    payerName: "Yonas Abebe",
    payerPhone: "2519****0456",
    creditedName: "Tigist Haile",
    creditedAccount: "2519****8812",
    status: "Completed",
    date: "03-02-2024 09:05:11",
    settled: "100 Birr",
    serviceFee: "0 Birr",
    serviceFeeVat: "0 Birr",
    totalPaid: "100 Birr",
    amountInWords: "One Hundred Birr",
    reason: "Send Money to Registered Customer",
    channel: "USSD",
    note: "",
    receipt: {
      status: "completed",
      transactionType: "Send Money to Registered Customer",
      amount: 100,
      currency: "ETB",
      transactionDate: "2024-02-03T09:05:11+03:00",
      payerName: "Yonas Abebe",
      payerAccount: "2519****0456",
      receiverName: "Tigist Haile",
      receiverAccount: "2519****8812",
      description: null,
    },
  },
];

const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Ethio telecom</title></head>
<body><div class="container"><h3 style="color:red">This request is not correct</h3></div></body></html>`;

export const simulatedTelebirr: SimulatedBank = {
  code: "telebirr",
  origins: [ORIGIN],
  examples: TRANSACTIONS.map(
    (t): SimExample => ({
      target: { transactionNumber: t.reference, account: null, token: null },
      shareUrl: `https://transactioninfo.ethiotelecom.et/receipt/${t.reference}`,
      reference: t.reference,
      receipt: t.receipt,
    }),
  ),
  notFound: { transactionNumber: "DAB7QX2LMN", account: null, token: null },
  handle(request: SimRequest): SimResponse {
    const match = /^\/receipt\/([^/?]+)$/.exec(request.path);
    if (request.method !== "GET" || !match?.[1]) {
      return { status: 404, headers: { "content-type": "text/html" }, body: "<h1>404 Not Found</h1>" };
    }
    const reference = decodeURIComponent(match[1]);
    const transaction = TRANSACTIONS.find((t) => t.reference === reference);
    return {
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: transaction ? renderReceipt(transaction) : NOT_FOUND_PAGE,
    };
  },
};

// --- internal helpers ---

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const row = (label: string, value: string) =>
  `<tr><td class="receipttableTd">${label}</td><td class="receipttableTd receipttableTd2">${escapeHtml(value)}</td></tr>`;

const feeRow = (label: string, value: string) =>
  `<tr><td class="receipttableTd1" colspan="2">${label}</td><td class="receipttableTd2">${escapeHtml(value)}</td></tr>`;

function renderReceipt(t: TelebirrTransaction): string {
  const bankRow = t.bankAccount === undefined ? "" : row("የባንክ አካውንት ቁጥር/Bank account number", t.bankAccount);
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>telebirr receipt</title>
<style>.receipttableTd{border:1px solid #ccc}.receipttableTd1{font-weight:bold}.receipttableTd2{text-align:left}</style>
</head><body>
<div class="receipt">
<table class="receipttable"><tr><td><img src="/images/ethiotelecom.png" alt="ethio telecom"></td>
<td>ኢትዮ ቴሌኮም/Ethio telecom<br>TIN 0000030603<br>VAT Reg No 012700</td></tr></table>
<h4>telebirr Receipt / የቴሌብር ደረሰኝ</h4>
<table class="receipttable">
${row("የከፋይ ስም/Payer Name", t.payerName)}
${row("የከፋይ ቴሌብር ቁ./Payer telebirr no.", t.payerPhone)}
${row("የከፋይ አካውንት አይነት/Payer account type", "Individual Customer")}
${row("የከፋይ ግብር ከፋይ መለያ ቁ./Payer TIN No", "")}
${row("የገንዘብ ተቀባይ ስም/Credited Party name", t.creditedName)}
${row("የገንዘብ ተቀባይ ቴሌብር ቁ./Credited party account no", t.creditedAccount)}
${row("የክፍያው ሁኔታ/transaction status", t.status)}
${bankRow}
</table>
<table class="receipttable">
<tr><td class="receipttableTd" colspan="3">የክፍያ ዝርዝር/ Invoice details</td></tr>
<tr><td class="receipttableTd1">የክፍያ ቁጥር/Invoice No.</td><td class="receipttableTd1">የክፍያ ቀን/Payment date</td><td class="receipttableTd1">የተከፈለው መጠን/Settled Amount</td></tr>
<tr><td class="receipttableTd2">${t.reference}</td><td class="receipttableTd2">${t.date}</td><td class="receipttableTd2">${t.settled}</td></tr>
${feeRow("የቴምብር ቀረጥ/Stamp Duty", "0.00 Birr")}
${feeRow("ቅናሽ/Discount Amount", "0.00 Birr")}
${feeRow("የአገልግሎት ክፍያ/Service fee", t.serviceFee)}
${feeRow("የአገልግሎት ክፍያ ተ.እ.ታ/Service fee VAT", t.serviceFeeVat)}
${feeRow("ጠቅላላ የተከፈለ/Total Paid Amount", t.totalPaid)}
</table>
<table class="receipttable">
${row("የገንዘቡ ልክ በፊደል/Total Amount in word", t.amountInWords)}
${row("የክፍያ ዘዴ/Payment Mode", "telebirr")}
${row("የክፍያ ምክንያት/Payment Reason", t.reason)}
${row("የክፍያ መንገድ/Payment channel", t.channel)}
${row("የደንበኛ ማስታወሻ/Customer Note", t.note)}
</table>
<p>Scan the QR using telebirr SuperApp to verify the payment</p>
</div></body></html>`;
}
