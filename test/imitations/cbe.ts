// An outsider's imitation of CBE, written from docs/banks.md §2.1 (and §1.3–1.6) only: the mobile-receipt
// JSON API behind mbreciept links, and the legacy PDF system on port 100 (both `?id=` and `/BranchReceipt/`).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import PDFDocument from "pdfkit";

interface MobileTransaction {
  id: string;
  transactionType: string;
  debitAccountHolder: string;
  debitAccountNo: string;
  creditAccountHolder: string;
  creditAccountNo: string;
  amountCredited: string;
  amountDebited: string;
  creditCurrency: string;
  dateTimes: string[];
  paymentDetails: string[];
}

/** Tokens of the mobile-receipt system (case-sensitive, §2.1). */
export const cbeMobile: Record<string, MobileTransaction> = {
  "v2-Qm7RtZkLpXa9BwYc4Hdq": {
    id: "FT2614977L8S",
    transactionType: "ACNX",
    debitAccountHolder: "ABEBE KEBEDE TADESSE",
    debitAccountNo: "1********8348",
    creditAccountHolder: "SELAM TRADING PLC",
    creditAccountNo: "1********1685",
    amountCredited: "1300.00",
    amountDebited: "1300.00",
    creditCurrency: "ETB",
    dateTimes: ["2026-05-29T08:30:00Z"],
    paymentDetails: ["invoice 0457"],
  },
  // An older bare id; the bank answers it with a transient 400 first (§1.4).
  fHCxyV4mg5pRIwEkJO: {
    id: "FT26170NPPON",
    transactionType: "ACNX",
    debitAccountHolder: "HANA GETACHEW",
    debitAccountNo: "1********0947",
    creditAccountHolder: "DAWIT MENGISTU",
    creditAccountNo: "1********7112",
    amountCredited: "2000.00",
    amountDebited: "2000.00",
    creditCurrency: "ETB",
    dateTimes: ["2026-06-19T13:45:00Z"],
    paymentDetails: ["house rent"],
  },
  // Debit side carries the fees here (one outsider reading of "amountCredited / amountDebited").
  "v2-Lp4sWq8NeRt2YuZk6Mbx": {
    id: "FT26188W2KDN",
    transactionType: "ACNX",
    debitAccountHolder: "RAHEL YOHANNES",
    debitAccountNo: "1********5512",
    creditAccountHolder: "NEGASH TRADING",
    creditAccountNo: "1********9034",
    amountCredited: "500.00",
    amountDebited: "505.75",
    creditCurrency: "ETB",
    dateTimes: ["2026-07-07T06:12:44Z"],
    paymentDetails: ["order 88"],
  },
};

interface LegacyReceipt {
  payer: string;
  payerAccount: string;
  receiver: string;
  receiverAccount: string;
  /** M/D/YYYY, h:mm:ss AM (§1.6), Addis Ababa time. */
  date: string;
  reason: string;
  /** `20,000.00 ETB` (§1.5). */
  transferred: string;
  commission: string;
  vat: string;
  disaster: string;
  total: string;
  words: string;
}

/** Legacy receipts by `{FT ref}{last 8 digits of the receiving account}`. */
export const cbeLegacy: Record<string, LegacyReceipt> = {
  FT26140P01YB60536171: {
    payer: "MEKDES ALEMU BEKELE",
    payerAccount: "1****3928",
    receiver: "HABTAMU GIRMA WOLDE",
    receiverAccount: "1****6171",
    date: "5/20/2026, 7:29:00 PM",
    reason: "Fund Transfer / school fee",
    transferred: "20,000.00 ETB",
    commission: "10.00 ETB",
    vat: "1.50 ETB",
    disaster: "0.50 ETB",
    total: "20,012.00 ETB",
    words: "ETB Twenty Thousand Twelve Birr & Zero Cents",
  },
  // The same transfer as the v2 token above, reachable the old way too.
  FT2614977L8S56781685: {
    payer: "ABEBE KEBEDE TADESSE",
    payerAccount: "1****8348",
    receiver: "SELAM TRADING PLC",
    receiverAccount: "1****1685",
    date: "5/29/2026, 11:30:00 AM",
    reason: "Fund Transfer / invoice 0457",
    transferred: "1,300.00 ETB",
    commission: "5.00 ETB",
    vat: "0.75 ETB",
    disaster: "0.25 ETB",
    total: "1,306.00 ETB",
    words: "ETB One Thousand Three Hundred Six Birr & Zero Cents",
  },
};

/** Branch-counter receipts, only under `/BranchReceipt/{FT}&{8}`. */
export const cbeBranch: Record<string, LegacyReceipt> = {
  "FT26201K3QZX&40213377": {
    payer: "TSEHAY ASSEFA",
    payerAccount: "1****2210",
    receiver: "ABYSSINIA COFFEE EXPORT",
    receiverAccount: "1****3377",
    date: "7/20/2026, 9:05:12 AM",
    reason: "Cash Deposit",
    transferred: "7,450.00 ETB",
    commission: "0.00 ETB",
    vat: "0.00 ETB",
    disaster: "0.00 ETB",
    total: "7,450.00 ETB",
    words: "ETB Seven Thousand Four Hundred Fifty Birr & Zero Cents",
  },
};

const transientSeen = new Set<string>();

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

function cbePdf(r: LegacyReceipt, reference: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: 40 });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.fontSize(14).text("Commercial Bank of Ethiopia", 40, 40);
  doc.fontSize(12).text("VAT Invoice / Customer Receipt", 40, 62);
  const rows: [string, string][] = [
    ["Customer Name", r.payer],
    ["Region", "Addis Ababa"],
    ["City", "Addis Ababa"],
    ["Sub city", "Bole"],
    ["Wereda/Kebele", "03"],
    ["Branch", "Bole Medhanialem Branch"],
    ["SWIFT Code", "CBETETAA"],
    ["Tin", "0000006966"],
    ["VAT Receipt No", reference],
    ["VAT Registration No", "011140"],
    ["Payment / Transaction Information", ""],
    ["Payer", r.payer],
    ["Account", r.payerAccount],
    ["Receiver", r.receiver],
    ["Account", r.receiverAccount],
    ["Payment Date & Time", r.date],
    ["Reference No. (VAT Invoice No)", reference],
    ["Reason / Type of service", r.reason],
    ["Transferred Amount", r.transferred],
    ["Commission or Service Charge", r.commission],
    ["15% VAT on Commission", r.vat],
    ["5% Disaster Recovery", r.disaster],
    ["Total amount debited from customers account", r.total],
    ["Amount in Word", r.words],
  ];
  let y = 100;
  doc.fontSize(10);
  for (const [label, value] of rows) {
    doc.text(label, 40, y, { width: 250 });
    if (value) doc.text(value, 300, y, { width: 250 });
    y += 20;
  }
  doc.end();
  return done;
}

const legacyMiss =
  "<html><body><h3>You Are Not Allowed to See This Data, Please Check your Link</h3></body></html>";

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://cbe.invalid");
  const mobilePrefix = "/api/v1/transactions/public/transaction-detail/";
  if (url.pathname.startsWith(mobilePrefix)) {
    if (!req.headers["x-app-id"] || !req.headers["x-app-version"]) {
      send(res, 400, "application/problem+json", JSON.stringify({ title: "Missing Headers", status: 400 }));
      return;
    }
    const token = decodeURIComponent(url.pathname.slice(mobilePrefix.length));
    const tx = cbeMobile[token];
    if (!tx) {
      send(
        res,
        500,
        "application/problem+json",
        JSON.stringify({
          type: "about:blank",
          title: "Internal Server Error",
          status: 500,
          detail: "Security Alert: Invalid or tampered legacy token!",
        }),
      );
      return;
    }
    if (token === "fHCxyV4mg5pRIwEkJO" && !transientSeen.has(token)) {
      transientSeen.add(token);
      send(res, 400, "application/problem+json", JSON.stringify({ title: "Bad Request", status: 400 }));
      return;
    }
    send(res, 200, "application/json", JSON.stringify(tx));
    return;
  }
  if (url.pathname === "/" && url.searchParams.has("id")) {
    const id = url.searchParams.get("id") ?? "";
    const receipt = cbeLegacy[id];
    if (!receipt) return send(res, 404, "text/html", legacyMiss);
    send(res, 200, "application/pdf", await cbePdf(receipt, id.slice(0, 12)));
    return;
  }
  if (url.pathname.startsWith("/BranchReceipt/")) {
    const key = decodeURIComponent(url.pathname.slice("/BranchReceipt/".length));
    const receipt = cbeBranch[key];
    if (!receipt) return send(res, 404, "text/html", legacyMiss);
    send(res, 200, "application/pdf", await cbePdf(receipt, key.slice(0, 12)));
    return;
  }
  send(res, 404, "text/html", legacyMiss);
}

/** One loopback server standing for mb.cbe.com.et and apps.cbe.com.et:100 (their paths do not overlap). */
export async function startCbe(): Promise<{ overrides: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    handle(req, res).catch(() => send(res, 500, "text/plain", "imitation failed"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    overrides: `mb.cbe.com.et:443=${base},apps.cbe.com.et:100=${base}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
