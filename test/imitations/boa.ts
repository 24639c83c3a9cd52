// An outsider's imitation of Bank of Abyssinia's slip API, written from docs/banks.md §2.5 (and §1.3–1.6)
// only: JSON at cs.bankofabyssinia.com/api/onlineSlip/getDetails/?id={ref12}{last5}; a miss is a 200
// "Invalid reference number".
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface BoaTransaction {
  reference: string;
  /** Last 5 digits of both parties' accounts: the slip id works with either (SMS owner's account, §2.5). */
  suffixes: string[];
  /** The key set varies by transaction type (§2.5), so each transaction carries its own body. */
  body: Record<string, string>;
}

export const boaTransactions: BoaTransaction[] = [
  {
    reference: "FT26083XJRMH",
    // payer 140526009, receiver 888013487
    suffixes: ["26009", "13487"],
    body: {
      "Payer's Name": "NATNAEL ASEFA KEBEDE",
      "Payer's Account": "1****6009",
      "Receiver's Name": "BLUE NILE PHARMACY",
      "Receiver's Account": "8****3487",
      "Transferred Amount": "ETB 1,107.59",
      "Transferred Amount in Word": "One Thousand One Hundred Seven Birr and Fifty Nine Cents",
      "Service Charge": "ETB 2.00",
      "VAT (15%)": "ETB 0.30",
      "Total Amount including VAT": "ETB 1,109.89",
      "Transaction Type": "Account to Account Transfer",
      // DD/MM/YY HH:MM (§1.6), Addis Ababa time
      "Transaction Date": "24/03/26 10:15",
      "Transaction Reference": "FT26083XJRMH",
      Narrative: "medicine order 311",
      currency: "ETB",
    },
  },
  {
    reference: "TT26171RW0YG",
    // payer 100102723 (SMS "2*23"), beneficiary 305111144
    suffixes: ["02723", "11144"],
    body: {
      "Source Account Name": "MESERET HAILU",
      "Source Account": "1****2723",
      "Beneficiary Name": "AMANUEL TEKLE",
      "Beneficiary Account": "3****1144",
      "Transferred Amount": "200.00",
      "Transferred Amount in Word": "Two Hundred Birr",
      "Service Charge": "0.00",
      "VAT (15%)": "0.00",
      "Total Amount including VAT": "200.00",
      "Transaction Type": "Teller Transfer",
      "Transaction Date": "20/06/26 17:32",
      "Payment Reference": "TT26171RW0YG",
      Narrative: "contribution",
      "Tel.": "0911******",
      Address: "Addis Ababa",
    },
  },
  {
    // The §1.1 sample: 2025 day 200 = 19 Jul 2025; mixed key spellings and the app's date form (§1.6).
    reference: "FT252003JZPP",
    // payer 206631190, receiver 415570044
    suffixes: ["31190", "70044"],
    body: {
      "Source Account Name": "YEABSIRA GEBREMEDHIN",
      "Source Account": "2****1190",
      "Receiver's Name": "ADDIS MOTORS SPARE PARTS",
      "Receiver's Account": "4****0044",
      "Transferred Amount": "ETB 5,000.00",
      "Service Charge": "ETB 10.00",
      "VAT (15%)": "ETB 1.50",
      "Total Amount including VAT": "ETB 5,011.50",
      "Transaction Type": "Other Bank Transfer",
      "Transaction Date": "19/07/2025, 17:32:13",
      "Transaction Reference": "FT252003JZPP",
      Narrative: "brake pads",
      currency: "ETB",
    },
  },
];

function find(id: string): BoaTransaction | undefined {
  return boaTransactions.find(
    (t) => id.length === 17 && t.reference === id.slice(0, 12) && t.suffixes.includes(id.slice(12)),
  );
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startBoa(): Promise<{ overrides: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://boa.invalid");
    if (url.pathname !== "/api/onlineSlip/getDetails/" && url.pathname !== "/api/onlineSlip/getDetails") {
      return send(res, 404, { message: "Not Found" });
    }
    const tx = find(url.searchParams.get("id") ?? "");
    // A miss is a normal 200 answer; only the body tells (§1.3).
    if (!tx)
      return send(res, 200, {
        header: { status: "success" },
        body: [{ "Payer's Name": "Invalid reference number" }],
      });
    send(res, 200, { header: { status: "success" }, body: [tx.body] });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    overrides: `cs.bankofabyssinia.com:443=${base}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
