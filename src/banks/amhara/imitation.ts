import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

const RECEIPT_ORIGIN = "receipt.amharabank.com.et:443";
const API_ORIGIN = "transaction.amharabank.com.et:443";

interface SeededTransfer {
  /** `data` of the API answer, with the API's own (misspelled, direction-dependent) keys. */
  data: { [key: string]: string };
  receipt: Receipt;
}

// Key sets follow the captured payloads: an outgoing IPS transfer names the payer in debitor*/debit*
// and the payee in receiverName/reveiverAccount (creditor*/creditAccountId are settlement accounts);
// an incoming one names the payer in sendor* and the payee in creditorName/creditAccountId.
const RECORDS: readonly SeededTransfer[] = [
  {
    data: {
      netChargeAmount: "ETB30",
      dateTime: "2609060908",
      amount: "5000.00",
      debitAccount: "9900050363768",
      creditorName: "A2A Transfer - ETH Outgoing",
      transactionReference: "FT262507XG9T",
      city: "ADDIS ABABA",
      otherBankName: "COMMERCIAL BANK OF ETHIOPIA",
      receiverName: "Miss Hana Girma Tadesse",
      drChargeAmount: "ETB1.50",
      branchName: "AMHARA BANK S.C.",
      woreda: "WOREDA -8",
      transactionDesc: "IPS Outgoing Txn",
      totalAmount: "ETB5036.00",
      subCity: "Arada",
      otherBankBic: "CBETETAA",
      creditAccountId: "ETB1756000010003",
      reveiverAccount: "1000217529647",
      currencyId: "ETB",
      taxAmount: "ETB4.50",
      bookingDate: "20260907",
      debitorName: "Dawit Mekonnen Bekele",
      status: "MAT",
    },
    receipt: {
      status: "completed",
      amount: 5000,
      currency: "ETB",
      transactionDate: "2026-09-06T09:08:00+03:00",
      payerName: "Dawit Mekonnen Bekele",
      payerAccount: "9900050363768",
      receiverName: "Miss Hana Girma Tadesse",
      receiverAccount: "1000217529647",
      description: "IPS Outgoing Txn",
    },
  },
  {
    data: {
      netChargeAmount: "ETB0",
      dateTime: "2609051714",
      amount: "2750.50",
      debitAccount: "ETB1251700010003",
      creditorName: "Dawit Mekonnen Bekele",
      transactionReference: "FT26248K7Q1P",
      city: "ADDIS ABABA",
      otherBankName: "COMMERCIAL BANK OF ETHIOPIA",
      sendorAccount: "1000341187205",
      branchName: "AMHARA BANK S.C.",
      woreda: "WOREDA -8",
      transactionDesc: "IPS Incoming Txn",
      totalAmount: "ETB2750.50",
      subCity: "Arada",
      otherBankBic: "CBETETAA",
      sendorName: "Yonas Abebe Wolde",
      street: "WOREDA -8",
      bookingDate: "20260905",
      creditAccountId: "9900050363768",
      currencyId: "ETB",
      debitorName: "A2A Transfer - ETH Incoming",
      status: "Auth",
    },
    receipt: {
      status: "completed",
      amount: 2750.5,
      currency: "ETB",
      transactionDate: "2026-09-05T17:14:00+03:00",
      payerName: "Yonas Abebe Wolde",
      payerAccount: "1000341187205",
      receiverName: "Dawit Mekonnen Bekele",
      receiverAccount: "9900050363768",
      description: "IPS Incoming Txn",
    },
  },
  {
    // An in-bank transfer booked without a dateTime and with only the fee-free total.
    data: {
      netChargeAmount: "ETB0",
      dateTime: "",
      debitAccount: "9900050363768",
      transactionReference: "FT26301Q4M8Z",
      receiverName: "Meron Ayele Kassa",
      branchName: "BAHIR DAR BRANCH",
      transactionDesc: "Account to Account Transfer",
      totalAmount: "ETB1,200.00",
      reveiverAccount: "9900071122458",
      currencyId: "ETB",
      bookingDate: "20261028",
      debitorName: "Dawit Mekonnen Bekele",
      status: "MAT",
    },
    receipt: {
      status: "completed",
      amount: 1200,
      currency: "ETB",
      transactionDate: "2026-10-28T00:00:00+03:00",
      payerName: "Dawit Mekonnen Bekele",
      payerAccount: "9900050363768",
      receiverName: "Meron Ayele Kassa",
      receiverAccount: "9900071122458",
      description: "Account to Account Transfer",
    },
  },
  {
    // T24 "INAU": keyed but not authorised; the adapter passes it through and the engine does not confirm it.
    data: {
      dateTime: "2609061133",
      amount: "800.00",
      debitAccount: "9900050363768",
      transactionReference: "FT26249RV3KX",
      receiverName: "Hana Girma Tadesse",
      branchName: "AMHARA BANK S.C.",
      transactionDesc: "Account to Account Transfer",
      totalAmount: "ETB800.00",
      reveiverAccount: "9900088014473",
      currencyId: "ETB",
      bookingDate: "20260906",
      debitorName: "Dawit Mekonnen Bekele",
      status: "INAU",
    },
    receipt: {
      status: "inau",
      amount: 800,
      currency: "ETB",
      transactionDate: "2026-09-06T11:33:00+03:00",
      payerName: "Dawit Mekonnen Bekele",
      payerAccount: "9900050363768",
      receiverName: "Hana Girma Tadesse",
      receiverAccount: "9900088014473",
      description: "Account to Account Transfer",
    },
  },
];

const SHARE_URLS: { [reference: string]: string } = {
  FT262507XG9T: "https://receipt.amharabank.com.et/?trx=FT262507XG9T",
  FT26248K7Q1P: "https://transaction.amharabank.com.et/FT26248K7Q1P",
};

const examples: SimExample[] = RECORDS.map(({ data, receipt }) => {
  const reference = data.transactionReference ?? "";
  const shareUrl = SHARE_URLS[reference];
  return {
    target: { transactionNumber: reference, account: null, token: null },
    ...(shareUrl ? { shareUrl } : {}),
    reference,
    receipt,
  };
});

/** Amhara Bank: JSON transaction API; misses (and in-app transfers) answer HTTP 500 `{status:false}`. */
export const simulatedAmhara: SimulatedBank = {
  code: "amhara",
  origins: [RECEIPT_ORIGIN, API_ORIGIN],
  examples,
  notFound: { transactionNumber: "FT26250ZZ9QX", account: null, token: null },
  handle(request: SimRequest): SimResponse {
    if (request.origin === RECEIPT_ORIGIN) return reactShell();
    const reference = /^\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method !== "GET" || !reference) return cannot(request);
    const record = RECORDS.find((entry) => entry.data.transactionReference === decodeURIComponent(reference));
    if (!record) return json(500, { status: false, message: "Internal server error." });
    return json(200, { status: true, data: record.data });
  },
};

// --- internal helpers ---

function json(status: number, body: unknown): SimResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  };
}

/** Express's default answer for a route it does not have. */
function cannot(request: SimRequest): SimResponse {
  return {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><pre>Cannot ${request.method} ${request.path}</pre></body></html>`,
  };
}

/** The share page is a React app that calls the transaction API from the browser. */
function reactShell(): SimResponse {
  return {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Amhara Bank Receipt</title></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body></html>',
  };
}
