// An outsider's imitation of Amhara Bank, written from docs/banks.md §2.10, §1.3, §1.6 only.
// - transaction.amharabank.com.et/{FT ref}: JSON {status:true, data:{…}}; keys are misspelt and vary by
//   direction; unknown references answer HTTP 500 {status:false, message}.
// - receipt.amharabank.com.et/?trx={FT ref}: the React share page (an empty shell, no data in it).
import type { IncomingMessage, ServerResponse } from "node:http";
import { type LoopbackImitation, serveImitation } from "./harness.js";

export interface AmharaTransaction {
  reference: string;
  /** The `data` object exactly as the API sends it. */
  data: Record<string, string | number>;
}

// FT + YYDDD + 5: 26249 = 6 Sep 2026, 26252 = 9 Sep 2026, 26255 = 12 Sep 2026.
export const amharaTransactions: AmharaTransaction[] = [
  {
    // Outgoing-style keys (sendor…/reveiver…), status MAT.
    reference: "FT26249K7Q1P",
    data: {
      transactionReference: "FT26249K7Q1P",
      sendorName: "TIGIST ASSEFA WOLDE",
      sendorAccount: "9900012345678",
      receiverName: "ABAY COFFEE EXPORT PLC",
      reveiverAccount: "9900087654321",
      amount: "3250.00",
      currencyId: "ETB",
      dateTime: "2609060908",
      bookingDate: "20260906",
      branchName: "BAHIR DAR BRANCH",
      transactionDesc: "Payment for coffee beans",
      status: "MAT",
    },
  },
  {
    // The other spelling set (debitor…/creditor…), status Auth.
    reference: "FT26252X3M8D",
    data: {
      transactionReference: "FT26252X3M8D",
      debitorName: "MULUGETA HAILE",
      debitAccount: "9900011122233",
      creditorName: "ABAY COFFEE EXPORT PLC",
      creditAccountId: "9900087654321",
      totalAmount: "12000.00",
      currencyId: "ETB",
      dateTime: "2609091745",
      bookingDate: "20260909",
      branchName: "GONDAR BRANCH",
      transactionDesc: "Invoice 2219",
      status: "Auth",
    },
  },
  {
    reference: "FT26255B9R2C",
    data: {
      transactionReference: "FT26255B9R2C",
      sendorName: "SAMUEL TESFAYE",
      sendorAccount: "9900055566677",
      receiverName: "ABAY COFFEE EXPORT PLC",
      reveiverAccount: "9900087654321",
      // JSON numbers here: docs/banks.md does not say whether amounts are strings or numbers.
      amount: 480.5,
      currencyId: "ETB",
      dateTime: "2609120002",
      bookingDate: "20260912",
      branchName: "DESSIE BRANCH",
      transactionDesc: "Transfer",
      status: "MAT",
    },
  },
];

export type BankImitation = LoopbackImitation;

// One server stands for both hosts: the share page lives at "/" and the API under "/FT…".
export function startAmharaImitation(): Promise<BankImitation> {
  return serveImitation(["transaction.amharabank.com.et:443", "receipt.amharabank.com.et:443"], handle);
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? "/", "http://x");
  if (url.pathname === "/" && url.searchParams.has("trx")) {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      '<!doctype html><html><head><title>Amhara Bank Receipt</title></head><body><div id="root"></div>' +
        '<script src="/static/js/main.js"></script></body></html>',
    );
    return;
  }
  const reference = decodeURIComponent(url.pathname.slice(1));
  const found = amharaTransactions.find((t) => t.reference === reference);
  if (!found || request.method !== "GET") {
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify({ status: false, message: "Transaction not found" }));
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ status: true, data: found.data }));
}
