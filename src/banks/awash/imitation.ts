import type { SimExample, SimRequest, SimResponse, SimulatedBank } from "../../simulator/types.js";
import type { Receipt } from "../types.js";

const ORIGIN = "awashpay.awashbank.com:8225";
const BASE = `https://${ORIGIN}`;
const TOKEN = /^-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;

type Row = readonly [label: string, value: string];

/** One AwashBirr Pro receipt page: header variant, customer block, and the per-type transaction rows. */
interface AwashSlip {
  /** "-{base-36 transaction id}-{counter}", exactly as in the SMS link. */
  token: string;
  title: "Transfer successful" | "Transaction Successful" | "Telebirr Transfer";
  customer: { name: string; account: string; city: string; branch: string };
  rows: readonly Row[];
  receipt: Receipt;
}

const SLIPS: readonly AwashSlip[] = [
  {
    // Transaction ID 260607112275735 = 2KDL95Z0NR in base 36.
    token: "-2KDL95Z0NR-4U61O6",
    title: "Transfer successful",
    customer: {
      name: "SELAMAWIT  TADESSE  BEKELE",
      account: "01425******7400/BANK",
      city: "Addis Ababa",
      branch: "BOLE BRANCH",
    },
    rows: [
      ["Transaction Date", "2026-06-07 11:22:03"],
      ["Transaction Type", "Send To Bank"],
      ["Amount", "3,000 ETB"],
      ["Charge", "0.00 ETB"],
      ["VAT", "0.00 ETB"],
      ["Sender Account", "01425******7400/BANK"],
      ["Sender Name", "SELAMAWIT  TADESSE  BEKELE"],
      ["Receiver Account", "01425******9901"],
      ["Receiver Name", "DAWIT ALEMU KEBEDE"],
      ["Reason", "Salary "],
      ["Transaction ID", "260607112275735"],
    ],
    receipt: {
      status: "completed",
      transactionType: "Send To Bank",
      amount: 3000,
      currency: "ETB",
      transactionDate: "2026-06-07T11:22:03+03:00",
      payerName: "SELAMAWIT TADESSE BEKELE",
      payerAccount: "01425******7400/BANK",
      receiverName: "DAWIT ALEMU KEBEDE",
      receiverAccount: "01425******9901",
      description: "Salary",
    },
  },
  {
    token: "-2KCGUFV10W-4N5XII",
    title: "Transaction Successful",
    customer: {
      name: "SELAMAWIT  TADESSE  BEKELE",
      account: "01425******7400/BANK",
      city: "Addis Ababa",
      branch: "BOLE BRANCH",
    },
    rows: [
      ["Transaction Time", "2026-05-19 03:05:53 PM"],
      ["Transaction Type", "IPS Bank Transfer"],
      ["Amount", "1000 ETB"],
      ["VAT", "0.90 ETB"],
      ["Sender Name", "SELAMAWIT  TADESSE  BEKELE"],
      ["Sender Account", "01425*******400"],
      ["Beneficiary name", "HIRUT GEBRE SELASSIE"],
      ["Beneficiary Account", "1000412345678"],
      ["Beneficiary Bank", "Commercial Bank of Ethiopia"],
      ["Reason", "house rent "],
      ["Transaction ID", "260519150599664"],
    ],
    receipt: {
      status: "completed",
      transactionType: "IPS Bank Transfer",
      amount: 1000,
      currency: "ETB",
      transactionDate: "2026-05-19T15:05:53+03:00",
      payerName: "SELAMAWIT TADESSE BEKELE",
      payerAccount: "01425*******400",
      receiverName: "HIRUT GEBRE SELASSIE",
      receiverAccount: "1000412345678",
      description: "house rent",
    },
  },
  {
    // Merchant payment from a wallet: no sender account row, the customer block holds the account; the
    // rows docs/banks.md lists for this type have no Transaction ID, so the receipt is known by its token.
    token: "-2KCEJ97YC9-4LDPET",
    title: "Transaction Successful",
    customer: {
      name: "YARED  MULUGETA  ABEBE",
      account: "25193******0/WALLET",
      city: "Addis Ababa",
      branch: "PIASSA BRANCH",
    },
    rows: [
      ["Transaction Date", "2026-05-14 12:08:00"],
      ["Transaction type", "Merchant Payment"],
      ["Amount", "100.00 ETB"],
      ["Merchant", "TSEHAY CAFE"],
      ["Till Number", "82795800"],
      ["Reason", "lunch"],
      ["Sender Name", "YARED  MULUGETA  ABEBE"],
    ],
    receipt: {
      status: "completed",
      transactionType: "Merchant Payment",
      amount: 100,
      currency: "ETB",
      transactionDate: "2026-05-14T12:08:00+03:00",
      payerName: "YARED MULUGETA ABEBE",
      payerAccount: "25193******0/WALLET",
      receiverName: "TSEHAY CAFE",
      receiverAccount: "82795800",
      description: "lunch",
    },
  },
  {
    // Telebirr transfer: date only, bare amount, receiver known only by phone number.
    token: "-2KDS640M4F-502Q7J",
    title: "Telebirr Transfer",
    customer: {
      name: "Mekdes Haile Gebru",
      account: "01425******8600/BANK",
      city: "ADDIS ABABA",
      branch: "SENGATERA",
    },
    rows: [
      ["Transaction Date", "2026-06-22"],
      ["Transaction Type", "Telebirr Transfer"],
      ["Phone Number", "251911223344"],
      ["Customer Name", "Mekdes Haile Gebru "],
      ["Source Account", "01425******8600/BANK"],
      ["Amount", "800.00"],
      ["Charge", "0.00"],
      ["VAT", "0.00"],
      ["Reason", "gift"],
      ["Transaction ID", "260622165068799"],
    ],
    receipt: {
      status: "completed",
      transactionType: "Telebirr Transfer",
      amount: 800,
      currency: "ETB",
      transactionDate: "2026-06-22T00:00:00+03:00",
      payerName: "Mekdes Haile Gebru",
      payerAccount: "01425******8600/BANK",
      receiverName: "",
      receiverAccount: "251911223344",
      description: "gift",
    },
  },
  {
    // Pre-2026 token: the transaction id is 12 hex-like characters.
    token: "-E41AE0D86FFA-21XYYW",
    title: "Transfer successful",
    customer: {
      name: "TEWODROS  ASFAW",
      account: "25191******8/WALLET",
      city: "Adama",
      branch: "ADAMA BRANCH",
    },
    rows: [
      ["Transaction Date", "2025-11-03 09:14:27 AM"],
      ["Transaction Type", "Send Money"],
      ["Amount", "2,500.00 ETB"],
      ["Charge", "0.00 ETB"],
      ["VAT", "0.00 ETB"],
      ["Sender Account", "25191******8/WALLET"],
      ["Sender Name", "TEWODROS  ASFAW"],
      ["Receiver Account", "25192******4/WALLET"],
      ["Receiver Name", "LIYA TEKLE"],
      ["Reason", "loan"],
      ["Transaction ID", "E41AE0D86FFA"],
    ],
    receipt: {
      status: "completed",
      transactionType: "Send Money",
      amount: 2500,
      currency: "ETB",
      transactionDate: "2025-11-03T09:14:27+03:00",
      payerName: "TEWODROS ASFAW",
      payerAccount: "25191******8/WALLET",
      receiverName: "LIYA TEKLE",
      receiverAccount: "25192******4/WALLET",
      description: "loan",
    },
  },
];

const BY_TOKEN = new Map(SLIPS.map((slip) => [slip.token, slip]));
const NOT_FOUND_TOKEN = "-2KDL95Z0NS-4U61O7";

export const simulatedAwash: SimulatedBank = {
  code: "awash",
  origins: [ORIGIN],
  examples: SLIPS.map(
    (slip): SimExample => ({
      target: { transactionNumber: slip.token, account: null, token: slip.token },
      shareUrl: `${BASE}/${slip.token}`,
      // The receipt's Transaction ID, not the share token.
      reference: slip.rows.find(([label]) => label === "Transaction ID")?.[1] ?? slip.token,
      receipt: slip.receipt,
    }),
  ),
  notFound: { transactionNumber: NOT_FOUND_TOKEN, account: null, token: NOT_FOUND_TOKEN },
  handle(request: SimRequest): SimResponse {
    const token = safeDecode(request.path.slice(1));
    // The F5 WAF rejects anything that is not a dash-led token (a stripped leading dash included).
    if (request.method !== "GET" || !TOKEN.test(token)) return rejected();
    const slip = BY_TOKEN.get(token);
    return html(slip ? renderReceipt(slip) : NOT_FOUND_PAGE);
  },
};

// --- internal helpers ---

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const NOT_FOUND_PAGE = `<!doctype html>
<html>
<head><meta charset="utf-8"><title>Awash Bank</title></head>
<body>
<div style="text-align:center;margin-top:80px;font-family:Arial, sans-serif">
  <h2>Receipt not found</h2>
</div>
</body>
</html>
`;

function infoRow(label: string, value: string, indent: string): string {
  return `${indent}<tr>\n${indent}    <td>${escapeHtml(label)}</td>\n${indent}    <td>:</td>\n${indent}    <td>${escapeHtml(value)}</td>\n${indent}</tr>`;
}

function transactionRow([label, value]: Row): string {
  const cell = (text: string) => `                        <td><tt><span>${escapeHtml(text)}</span></tt></td>`;
  return `<tr>\n${cell(`${label} `)}\n${cell(": ")}\n${cell(value)}\n                    </tr>`;
}

function renderReceipt(slip: AwashSlip): string {
  const company: Row[] = [
    ["Company Name", "Awash Bank Share company"],
    ["TIN No ", "0000030100"],
    ["VAT Reg No ", "17264"],
    ["VAT Reg Date ", "12/29/2003"],
    ["PO Box ", "12638"],
    ["Tel ", "0115570000  or 8980"],
  ];
  const customer: Row[] = [
    ["Customer Name", slip.customer.name],
    ["Account No", slip.customer.account],
    ["City", slip.customer.city],
    ["VAT Reg No", "-"],
    ["VAT Reg Date", "-"],
    ["TIN (TAX ID)", "-"],
    ["Branch", slip.customer.branch],
  ];
  const indent = "                                   ";
  return `






<!doctype html>
<html>
<head>
    <meta charset="utf-8">
    <title>${slip.title}</title>
    <link rel="stylesheet" href="${BASE}/awashbirrpro/receipts/paper2.css" type="text/css" media="screen, projection, print" />
    <script src="${BASE}/awashbirrpro/receipts/qrcode.min.js" type="text/javascript"></script>
    <style>
        * { font-family: Arial, sans-serif; }
        .header-table { width: 100%; border: 2px dotted #f9913e; margin-bottom: 10px; padding: 5px; }
        .info-table { width: 100%; font-size: 14px; border-collapse: collapse; }
        .info-table td:nth-child(3) { padding-left: 10px; }
    </style>
</head>
<body  class="A5 portrait">
<div class="sheet" id="contentToConvert" >
    <div class="print-container"  >
        <div class="watermarked">
            <img src="${BASE}/awashbirrpro/receipts/awash_receipt_header.png" alt="" style="width: 100%">
            <table class="header-table">
                <tr>
                    <td>Company Information</td>
                    <td>Customer Information</td>
                </tr>
            </table>
            <div style="display: flex; justify-content: center;">
                <div style="flex: 1;">
                               <table class="info-table">
${company.map(([label, value]) => infoRow(label, value, indent)).join("\n")}
                               </table>
                </div>
                <div style="flex: 1;">
                               <table class="info-table">
${customer.map(([label, value]) => infoRow(label, value, indent)).join("\n")}
                               </table>
                </div>
            </div>
            <div style="display: flex; justify-content: center; align-items: center; border: 2px dotted #f9913e; padding: 5px;">
                <span style="font-weight: bold; font-size: 14px;">Transaction/Payment Information</span>
            </div>
            <div class="receipt-container " style="position: relative;">
                    <table class="info-table" >
                        ${slip.rows.map(transactionRow).join("\n")}
                    </table>
                    <img class="stamp" src="${BASE}/awashbirrpro/receipts/awash_stamp.png" alt="Stamp">
                    <div class="qr-code" id="qrDiv"></div>
            </div>
        </div>
    </div>
    <div class="receipt-footer">
        <img src="${BASE}/awashbirrpro/receipts/awash_receipt_footer.png" alt="" style="width: 100%">
    </div>
</div>
<script>
    document.addEventListener('DOMContentLoaded', function () {
        new QRCode(document.getElementById('qrDiv'), {
            text: "${BASE}/${slip.token}",
            width: 100,
            height: 100
        });
    });
</script>
</body>
</html>
`;
}

function html(body: string): SimResponse {
  return { status: 200, headers: { "content-type": "text/html;charset=UTF-8" }, body };
}

function rejected(): SimResponse {
  return {
    status: 403,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 4021870561309442817<br><br><a href='javascript:history.back();'>[Go Back]</a></body></html>",
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
