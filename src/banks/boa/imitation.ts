import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

const ORIGIN = "cs.bankofabyssinia.com:443";

/** One slip: the id the API is called with (reference + account suffix) and the T24 row it returns. */
interface BoaSlip {
  reference: string;
  /** The account the caller gives; its last 5 digits complete the slip id. */
  account: string;
  /** The body row exactly as the API sends it (key sets differ by transaction type). */
  row: Record<string, string>;
  receipt: Receipt;
}

const SLIPS: readonly BoaSlip[] = [
  {
    // Account-to-account transfer: "Source Account…" and "Receiver's…" keys, JSON date DD/MM/YY HH:MM.
    reference: "FT26083XJRMH",
    account: "121226009",
    row: {
      "Source Account": "1******09",
      "Source Account Name": "ABEBE KEBEDE TESSEMA",
      "Receiver's Account": "2******45",
      "Receiver's Name": "MARTHA GIRMA DESTA",
      "Transferred Amount": "1,107.59",
      "Transferred Amount in word": "ONE THOUSAND ONE HUNDRED SEVEN ETB AND FIFTY NINE CENTS ONLY",
      "Service Charge": "0",
      "VAT (15%)": "0",
      "Total Amount including VAT": "1,107.59",
      "Transaction Type": "Account to Account Transfer",
      "Transaction Date": "24/03/26 10:15",
      "Transaction Reference": "FT26083XJRMH",
      Narrative: "March supplies",
      currency: "ETB",
    },
    receipt: {
      status: "completed",
      transactionType: "Account to Account Transfer",
      amount: 1107.59,
      currency: "ETB",
      transactionDate: "2026-03-24T10:15:00+03:00",
      payerName: "ABEBE KEBEDE TESSEMA",
      payerAccount: "1******09",
      receiverName: "MARTHA GIRMA DESTA",
      receiverAccount: "2******45",
      description: "March supplies",
    },
  },
  {
    // Debit SMS sample "account 2*23 was debited with ETB 200.00": payer's key set, app date format.
    reference: "TT26171RW0YG",
    account: "1000102723",
    row: {
      "Payer's Name": "SOLOMON TADESSE",
      "Payer's Account": "1******23",
      "Beneficiary Name": "ELIAS WORKU",
      "Beneficiary Account": "5******18",
      "Transferred Amount": "200.00",
      "Transferred Amount in word": "TWO HUNDRED ETB ONLY",
      "Service Charge": "0",
      "VAT (15%)": "0",
      "Total Amount including VAT": "200.00",
      "Transaction Type": "Mobile Banking Transfer",
      "Transaction Date": "20/06/2026, 14:05:31",
      "Transaction Reference": "TT26171RW0YG",
      "Payment Reference": "TT26171RW0YG",
      Narrative: "taxi",
      "Tel.": "+251911000223",
      Address: "ADDIS ABABA, ETH",
      currency: "ETB",
    },
    receipt: {
      status: "completed",
      transactionType: "Mobile Banking Transfer",
      amount: 200,
      currency: "ETB",
      transactionDate: "2026-06-20T14:05:31+03:00",
      payerName: "SOLOMON TADESSE",
      payerAccount: "1******23",
      receiverName: "ELIAS WORKU",
      receiverAccount: "5******18",
      description: "taxi",
    },
  },
  {
    // Fee payment: both payer keys, no receiver keys at all (as in a real "Tuition Fee" answer).
    reference: "FT250889JGGH",
    account: "07157",
    row: {
      "Source Account Name": "DERESSE MENGISTU ALEMU",
      "VAT (15%)": "0.75",
      "Transferred Amount in word": "NINE THOUSAND SEVEN HUNDRED EIGHTY EIGHT ETB ONLY",
      Address: "ADDIS ABABA, ETH",
      "Transaction Type": "Tuition Fee",
      "Service Charge": "5",
      "Vat Sequence Number": "0000000189682808",
      "Source Account": "1******57",
      "Payment Reference": "LIDYA DERESSE MENGISTU",
      "Tel.": "+251911993069",
      "Payer's Name": "DERESSE MENGISTU ALEMU",
      Narrative: "Semester II",
      "Transferred Amount": "9788.00",
      currency: "ETB",
      "Transaction Reference": "FT250889JGGH",
      "Transaction Date": "29/03/25 16:09",
      "Total Amount including VAT": "9793.75",
    },
    receipt: {
      status: "completed",
      transactionType: "Tuition Fee",
      amount: 9788,
      currency: "ETB",
      transactionDate: "2025-03-29T16:09:00+03:00",
      payerName: "DERESSE MENGISTU ALEMU",
      payerAccount: "1******57",
      receiverName: "",
      receiverAccount: "",
      description: "Semester II",
    },
  },
  {
    // Lower-case "Transferred amount" key and a four-digit year without the comma.
    reference: "FT252113TRLT",
    account: "64113487",
    row: {
      "Source Account": "6******87",
      "Source Account Name": "HELEN ASRAT",
      "Beneficiary Account": "4******01",
      "Beneficiary Name": "ABYSSINIA TRADING PLC",
      "Transferred amount": "30,124.20",
      "Service Charge": "10",
      "VAT (15%)": "1.5",
      "Total Amount including VAT": "30,135.70",
      "Transaction Type": "Account to Account Transfer",
      "Transaction Date": "30/07/2025 17:32:13",
      "Transaction Reference": "FT252113TRLT",
      Narrative: "",
      currency: "ETB",
    },
    receipt: {
      status: "completed",
      transactionType: "Account to Account Transfer",
      amount: 30124.2,
      currency: "ETB",
      transactionDate: "2025-07-30T17:32:13+03:00",
      payerName: "HELEN ASRAT",
      payerAccount: "6******87",
      receiverName: "ABYSSINIA TRADING PLC",
      receiverAccount: "4******01",
      description: "",
    },
  },
];

const slipId = (slip: BoaSlip) => `${slip.reference}${slip.account.slice(-5)}`;
const BY_ID = new Map(SLIPS.map((slip) => [slipId(slip), slip]));

export const simulatedBoa: SimulatedBank = {
  code: "boa",
  origins: [ORIGIN],
  examples: SLIPS.map(
    (slip): SimExample => ({
      target: { transactionNumber: slip.reference, account: slip.account, token: null },
      shareUrl: `https://cs.bankofabyssinia.com/slip/?trx=${slipId(slip)}`,
      reference: slip.reference,
      receipt: slip.receipt,
    }),
  ),
  // A real reference with the wrong account suffix: the API cannot tell the two apart.
  notFound: { transactionNumber: "TT26171RW0YG", account: "12345678", token: null },
  handle(request: SimRequest): SimResponse {
    if (request.method === "GET" && /^\/slip\/?$/.test(request.path)) return spaShell();
    if (request.method !== "GET" || !/^\/api\/onlineSlip\/getDetails\/?$/.test(request.path)) {
      return { status: 404, headers: { "content-type": "text/html" }, body: "<h1>Not Found</h1>" };
    }
    const slip = BY_ID.get((request.query.get("id") ?? "").trim().toUpperCase());
    // Misses (and inter-bank transfers) still answer 200 "success" with this single row.
    const row = slip ? slip.row : { "Payer's Name": "Invalid reference number" };
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        header: {
          audit: { T24_time: 72, responseParse_time: 4, requestParse_time: 8 },
          page_start: 1,
          page_token: "202608131570476905.01,99",
          total_size: 1,
          page_size: 99,
          status: "success",
        },
        body: [row],
      }),
    };
  },
};

// --- internal helpers ---

function spaShell(): SimResponse {
  return {
    status: 200,
    headers: { "content-type": "text/html" },
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>BoA Online Slip</title><script defer="defer" src="/slip/static/js/main.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>',
  };
}
