import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

const RECEIPT_ORIGIN = "receipts.dashenbanksc.com:443";
const LEGACY_RECEIPT_ORIGIN = "receipt.dashensuperapp.com:443";
const LEGACY_PDF_ORIGIN = "api.dashensuperapp.com:443";

type Row = readonly [label: string, value: string];

/** One receipt as the bank prints it, in its own label order, with the Receipt the adapter must read. */
interface DashenSlip {
  reference: string;
  /** "current": the HTML of receipts.dashenbanksc.com; "legacy": the labels and order of the old PDF template. */
  template: "current" | "legacy";
  details: readonly Row[];
  amounts: readonly Row[];
  amountInWords?: string;
  shareUrl: string;
  receipt: Receipt;
}

const NO_FEES: readonly Row[] = [
  ["Service Charge", "ETB 0.00"],
  ["Excise Tax (15%)", "ETB 0.00"],
  ["DRRF Fee", "ETB 0.00"],
  ["VAT (15%)", "ETB 0.00"],
  ["Penalty Fee", "ETB 0.00"],
  ["Income Tax Fee", "ETB 0.00"],
  ["Interest Fee", "ETB 0.00"],
  ["Stamp Duty", "ETB 0.00"],
  ["Discount Amount", "ETB 0.00"],
];

const SLIPS: readonly DashenSlip[] = [
  {
    // Transfer to a telebirr wallet: the receiver is a phone number (real SMS of 2026-08-14 links this ref).
    reference: "822LTWS2622600WJ",
    template: "current",
    details: [
      ["Sender Name", "HANA MEKONNEN ALEMU"],
      ["Sender Account Number", "5032******117"],
      ["Transaction Channel", "Dashen Bank Super App"],
      ["Service Type", "Dashen to Telebirr Transfer"],
      ["Narrative", "coffee beans"],
      ["Receiver Name", "SAMUEL GETACHEW"],
      ["Institution Name", "telebirr"],
      ["Phone No", "251912345678"],
      ["Transaction Reference", "822LTWS2622600WJ"],
      ["Transfer Reference", "LTWS4418260814143107233"],
      ["Transaction Date", "Aug 14, 2026, 02:31:07 pm"],
    ],
    amounts: [
      ["Transaction Amount", "ETB 1,250.00"],
      ["Service Charge", "ETB 2.00"],
      ["VAT (15%)", "ETB 0.30"],
      ["DRRF Fee", "ETB 0.00"],
      ["Total", "ETB 1,252.30"],
    ],
    shareUrl: "https://receipts.dashenbanksc.com/receipt/822LTWS2622600WJ",
    receipt: {
      status: "completed",
      transactionType: "Dashen to Telebirr Transfer",
      amount: 1250,
      currency: "ETB",
      transactionDate: "2026-08-14T14:31:07+03:00",
      payerName: "HANA MEKONNEN ALEMU",
      payerAccount: "5032******117",
      receiverName: "SAMUEL GETACHEW",
      receiverAccount: "251912345678",
      description: "coffee beans",
    },
  },
  {
    reference: "B22WDTI261620001",
    template: "current",
    details: [
      ["Sender Name", "ABEL TESFAYE GIRMA"],
      ["Sender Account Number", "2912******911"],
      ["Transaction Channel", "Dashen Bank Super App"],
      ["Service Type", "Within Dashen Transfer"],
      ["Narrative", "June rent"],
      ["Receiver Name", "MERON ASSEFA KEBEDE"],
      ["Beneficiary Bank Name", "Dashen Bank"],
      ["Receiver Account Number", "5014******208"],
      ["Transaction Reference", "B22WDTI261620001"],
      ["Transfer Reference", "WDTI5921680061225851717"],
      ["Transaction Date", "Jun 11, 2026, 08:45:50 am"],
    ],
    amounts: [["Transaction Amount", "ETB 20,475.00"], ...NO_FEES, ["Total", "ETB 20,475.00"]],
    shareUrl: "https://api.dashensuperapp.com/receipts/Within-Dashen-Transfer-B22WDTI261620001.pdf",
    receipt: {
      status: "completed",
      transactionType: "Within Dashen Transfer",
      amount: 20475,
      currency: "ETB",
      transactionDate: "2026-06-11T08:45:50+03:00",
      payerName: "ABEL TESFAYE GIRMA",
      payerAccount: "2912******911",
      receiverName: "MERON ASSEFA KEBEDE",
      receiverAccount: "5014******208",
      description: "June rent",
    },
  },
  {
    // IPS transfer from the real SMS "debited with ETB 100.48 on 2026-06-18 at 10:23:00" (fees included).
    reference: "110IPSS2616900WO",
    template: "current",
    details: [
      ["Sender Name", "KIDIST ALEMAYEHU WOLDE"],
      ["Sender Account Number", "0137******402"],
      ["Transaction Channel", "Dashen Bank Super App"],
      ["Service Type", "IPS Transfer"],
      ["Narrative", ""],
      ["Receiver Name", "BEKELE TOLA DIRIBA"],
      ["Institution Name", "Commercial Bank of Ethiopia"],
      ["Receiver Account Number", "1000187654321"],
      ["Transaction Reference", "110IPSS2616900WO"],
      ["Transfer Reference", "IPSS7730418260618102300911"],
      ["Transaction Date", "Jun 18, 2026, 10:23:00 am"],
    ],
    amounts: [
      ["Transaction Amount", "ETB 100.00"],
      ["Service Charge", "ETB 0.40"],
      ["VAT (15%)", "ETB 0.06"],
      ["DRRF Fee", "ETB 0.02"],
      ["Total", "ETB 100.48"],
    ],
    shareUrl: "https://receipt.dashensuperapp.com/receipt/110IPSS2616900WO",
    receipt: {
      status: "completed",
      transactionType: "IPS Transfer",
      amount: 100,
      currency: "ETB",
      transactionDate: "2026-06-18T10:23:00+03:00",
      payerName: "KIDIST ALEMAYEHU WOLDE",
      payerAccount: "0137******402",
      receiverName: "BEKELE TOLA DIRIBA",
      receiverAccount: "1000187654321",
      description: "",
    },
  },
  {
    // Old template: "Account Holder Name", "Transaction Ref", "Date", "Instituton Name" (sic), amount in words.
    reference: "641OBTS2518100WH",
    template: "legacy",
    details: [
      ["Transaction Ref", "641OBTS2518100WH"],
      ["Date", "Jun 30, 2025, 04:12:45 pm"],
      ["Account Holder Name", "TIGIST BEKELE WOLDE"],
      ["Sender Account Number", "0734******512"],
      ["Transaction Channel", "Dashen Bank Super App"],
      ["Service Type", "Other Bank Transfer"],
      ["Receiver Name", "YONAS HAILE MARIAM"],
      ["Receiver Account Number", "1000123456789"],
      ["Instituton Name", "Commercial Bank of Ethiopia"],
      ["Narrative", "school fee"],
    ],
    amounts: [
      ["Transaction Amount", "ETB 5,000.00"],
      ["Service Charge", "ETB 10.00"],
      ["VAT (15%)", "ETB 1.50"],
      ["Total", "ETB 5,011.50"],
    ],
    amountInWords: "Five Thousand Eleven Birr and Fifty Cents",
    shareUrl: "https://receipts.dashenbanksc.com/receipt/641OBTS2518100WH",
    receipt: {
      status: "completed",
      transactionType: "Other Bank Transfer",
      amount: 5000,
      currency: "ETB",
      transactionDate: "2025-06-30T16:12:45+03:00",
      payerName: "TIGIST BEKELE WOLDE",
      payerAccount: "0734******512",
      receiverName: "YONAS HAILE MARIAM",
      receiverAccount: "1000123456789",
      description: "school fee",
    },
  },
];

const BY_REFERENCE = new Map(SLIPS.map((slip) => [slip.reference, slip]));

export const simulatedDashen: SimulatedBank = {
  code: "dashen",
  origins: [RECEIPT_ORIGIN, LEGACY_RECEIPT_ORIGIN, LEGACY_PDF_ORIGIN],
  examples: SLIPS.map(
    (slip): SimExample => ({
      target: { transactionNumber: slip.reference, account: null, token: null },
      shareUrl: slip.shareUrl,
      reference: slip.reference,
      receipt: slip.receipt,
    }),
  ),
  notFound: { transactionNumber: "387ETAP2522000WK", account: null, token: null },
  handle(request: SimRequest): SimResponse {
    // The old hosts are gone: the gateway answers 502 for every path.
    if (request.origin !== RECEIPT_ORIGIN) return badGateway();
    const match = /^\/receipt\/([^/]+)$/.exec(request.path);
    if (request.method !== "GET" || !match?.[1]) {
      return json(404, {
        message: `Cannot ${request.method} ${request.path}`,
        error: "Not Found",
        statusCode: 404,
      });
    }
    const slip = BY_REFERENCE.get(safeDecode(match[1]));
    if (!slip) return json(400, { statusCode: 400, message: "Transaction not found" });
    return {
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: slip.template === "current" ? renderCurrent(slip) : renderLegacy(slip),
    };
  },
};

// --- internal helpers ---

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function page(title: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <script src="https://cdnjs.cloudflare.com/ajax/libs/html2pdf.js/0.10.1/html2pdf.bundle.min.js"></script>
  <style>
    body { font-family: Arial, sans-serif; background: #f4f6f9; }
    .receipt { max-width: 640px; margin: 24px auto; background: #fff; padding: 24px; border-top: 6px solid #00305f; }
    .section p { margin: 6px 0; } table { width: 100%; border-collapse: collapse; }
    td { padding: 6px 4px; border-bottom: 1px solid #e3e6ea; } td:last-child { text-align: right; }
  </style>
</head>
<body>
  <div class="receipt" id="receipt">
    <div class="header"><img src="/assets/dashen-logo.png" alt="Dashen Bank"><h2>Transaction Receipt</h2></div>
${content}
    <p class="footer">Thank you for banking with Dashen Bank. Dashen Bank S.C. &middot; 8000</p>
  </div>
  <button id="download" onclick="downloadReceipt()">Download Receipt</button>
  <script>
    function downloadReceipt() {
      html2pdf().set({ filename: "Dashen-Receipt.pdf" }).from(document.getElementById("receipt")).save();
    }
  </script>
</body>
</html>
`;
}

function amountRows(rows: readonly Row[]): string {
  return rows
    .map(([label, value]) => `        <tr><td>${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`)
    .join("\n");
}

function renderCurrent(slip: DashenSlip): string {
  const detail = ([label, value]: Row) =>
    `      <p><strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}</p>`;
  const receiverAt = slip.details.findIndex(([label]) => label === "Receiver Name");
  const sender = slip.details.slice(0, receiverAt).map(detail).join("\n");
  const receiver = slip.details.slice(receiverAt).map(detail).join("\n");
  return page(
    `Receipt ${slip.reference}`,
    `    <div class="section sender">
${sender}
    </div>
    <div class="section receiver">
${receiver}
    </div>
    <table class="amounts">
      <tbody>
${amountRows(slip.amounts)}
      </tbody>
    </table>`,
  );
}

function renderLegacy(slip: DashenSlip): string {
  const rows = slip.details
    .map(
      ([label, value]) =>
        `        <tr><td><strong>${escapeHtml(label)}:</strong></td><td>${escapeHtml(value)}</td></tr>`,
    )
    .join("\n");
  return page(
    `Receipt ${slip.reference}`,
    `    <table class="details">
      <tbody>
${rows}
      </tbody>
    </table>
    <table class="amounts">
      <tbody>
${amountRows(slip.amounts)}
      </tbody>
    </table>
    <p><strong>Amount in words:</strong> ${escapeHtml(slip.amountInWords ?? "")}</p>`,
  );
}

function json(status: number, body: unknown): SimResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  };
}

function badGateway(): SimResponse {
  return {
    status: 502,
    headers: { "content-type": "text/html" },
    body: "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
