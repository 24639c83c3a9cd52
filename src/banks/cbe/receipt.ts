import { bankUrls } from "../../reading/links.js";
import { parseAmount } from "../../reading/parse-utils.js";
import {
  cleanLines,
  compactReceipt,
  firstReading,
  type Labels,
  labelledAmount,
  namesIssuer,
  ocrAccount,
  readLabelled,
  repairFigures,
} from "../../reading/receipt-lines.js";
import { hasT24Reference, readDate, t24References } from "../../reading/t24.js";
import { repairReference } from "../../reading/text.js";
import { WALLET_NAME } from "../cbebirr/labels.js";
import { looksLikeCbeBirr } from "../cbebirr/receipt.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt, ShareLink } from "../types.js";
import {
  API_HOST,
  isCbeToken,
  isWholeCbeReference,
  LEGACY_HOST,
  normalizeCbeReference,
  parseCbeShareUrl,
  SHARE_HOST,
} from "./input.js";
import { BANK_NAME, LABELS, startsWithLabel, TIN } from "./labels.js";
import { readCbePdfText } from "./parse.js";

// Commercial Bank of Ethiopia (docs/banks.md §2.1). Two systems: mbreciept token links (case-sensitive
// tokens, what the SMS and app share today) and the legacy PDF looked up by FT reference + the receiving
// account's last 8 digits. The PDF/web receipt text shows the FT reference and masked accounts only, so the
// lookup account is known only from a legacy link.

const CBE_HOSTS: readonly string[] = [SHARE_HOST, API_HOST, LEGACY_HOST];
/** Host names as pattern sources. */
const hosts = (...names: readonly string[]) => names.map((name) => name.replace(/\./g, "\\.")).join("|");
/** The bank's name, or "CBE" alone: not the wallet CBE Birr (another issuer), not inside a host name. */
const NAME = new RegExp(String.raw`${BANK_NAME}|(?<![\w./@-])(?!${WALLET_NAME})CBE(?![\w.])`, "i");
/** Sign-off of every CBE SMS, and the bank's e-mail domain printed on the web receipt. */
const OWN_PHRASE = /Banking\s*with\s*CBE\b|@cbe\.com\.et\b/i;
/** Labels and phrases only CBE prints (the PDF/web receipt, the SMS fee breakdown, the app modal). */
const DISTINCTIVE = [
  ...(["reference", "commission", "vat", "total", "disaster"] as const).map(
    (label) => new RegExp(LABELS[label], "i"),
  ),
  /Disaster\s*Recovery\s*\(\s*5\s*%\s*\)/i,
  /debited\s+from\s+.+?\s+for\s+.+?-\s*ETB\s*-\s*\d{4}\b/i,
];
/** A v2 token is always "v2-" and 20 letters/digits (every sample); shorter runs are a wrapped line. */
const V2_LENGTH = 23;
const V2_IN_TEXT = /(?<![A-Za-z0-9/])[vV]2\s?-\s?([A-Za-z0-9_]{8,40})(?![A-Za-z0-9_-])/;

const CBE_LABELS = [
  ["reference", startsWithLabel("reference")],
  ["vatReceipt", startsWithLabel("vatReceipt")],
  ["date", startsWithLabel("date")],
  ["reason", startsWithLabel("reason")],
  ["amount", startsWithLabel("amount")],
  [
    "ignored",
    startsWithLabel(
      "commission",
      "vat",
      "disaster",
      "total",
      "words",
      "customer",
      "region",
      "city",
      "subcity",
      "wereda",
      "branch",
      "swift",
      "vatRegistration",
      "tin",
      "section",
    ),
  ],
  ["payer", startsWithLabel("payer")],
  ["receiver", startsWithLabel("receiver")],
  ["account", startsWithLabel("account")],
] as const satisfies Labels<string>;
type CbeKey = (typeof CBE_LABELS)[number][0];

// OCR may read a host's dots as spaces or commas ("mbreciept.cbe.com et/v2-…" on a blurred screen).
const ADDRESS_BAR = new RegExp(
  String.raw`(?<![\w.-])(?:${[SHARE_HOST, LEGACY_HOST].map((host) => host.replace(/\./g, "[.,]?\\s?")).join("|")})\b`,
  "i",
);

export const cbeReceiptParser: BankReceiptParser = {
  bank: "cbe",
  issuer: NAME,
  wholeFromImage: isWholeCbeReference,

  detect(text) {
    const lines = cleanLines(text);
    const urls = bankUrls(text, CBE_HOSTS);
    // A screenshot's address bar shows the host without a scheme.
    if (urls.length > 0 || ADDRESS_BAR.test(text)) return 10;
    // A CBE Birr receipt is issued under CBE's name and TIN; its own labels say it is the wallet's.
    const ownLabels = DISTINCTIVE.some((pattern) => pattern.test(lines.join(" ")));
    if (looksLikeCbeBirr(lines) && !ownLabels) return hasT24Reference(text, ["FT"]) ? 1 : 0;
    if (TIN.test(text) || OWN_PHRASE.test(text) || namesIssuer(lines, NAME)) return 10;
    if (ownLabels || V2_IN_TEXT.test(text) || bareToken(lines) !== null) return 5;
    return hasT24Reference(text, ["FT"]) ? 1 : 0;
  },

  parse(text, printed = null) {
    const lines = cleanLines(text);
    const flat = lines.join(" ");
    const link = cbeLink(text);
    const values = readLabelled(lines, CBE_LABELS, ["payer", "receiver"]);
    const ftReference = labelledReference(values, flat) ?? t24References(text, ["FT"])[0] ?? null;
    const token = link?.link.token ?? textToken(text) ?? bareToken(lines);
    const transactionNumber = token ?? link?.link.transactionNumber ?? ftReference ?? printed;
    const reference = ftReference ?? link?.link.transactionNumber ?? null;
    const claim: ReceiptReading = {
      bank: "cbe",
      // Upper-cases FT references only: tokens are case-sensitive.
      transactionNumber: transactionNumber && normalizeCbeReference(transactionNumber),
      reference: ftReference && normalizeCbeReference(ftReference),
      accountNumber: link?.link.accountNumber ?? null,
      shareUrl: link?.url ?? null,
      // Later readers win: the adapter's reading of a whole receipt, then single labels, then the message.
      receipt: {
        ...messageFields(flat, reference),
        ...labelFields(values, reference),
        ...pdfFields(text, lines),
      },
    };
    return claim;
  },
};

// --- CBE internals ---

/** The PDF / web receipt through the adapter's reader (it knows every layout pdf-parse produces). */
function pdfFields(text: string, lines: readonly string[]): Partial<Receipt> {
  const reading = firstReading([repairFigures(text), lines.join("\n")], readCbePdfText);
  return reading ? compactReceipt(reading.receipt) : {};
}

/** Labels read one by one: OCR text of a receipt photo rarely keeps every field the adapter requires. */
function labelFields(values: ReadonlyMap<CbeKey, string[]>, reference: string | null): Partial<Receipt> {
  const first = (key: CbeKey) => values.get(key)?.[0];
  if (![...values.keys()].some((key) => key !== "ignored")) return {};
  const [payerAccount, receiverAccount] = (values.get("account") ?? []).filter((value) =>
    /\d{3}/.test(value),
  );
  const dateText = first("date");
  const isReceipt = values.has("reference") || values.has("amount") || values.has("vatReceipt");
  return compactReceipt({
    ...(isReceipt ? { status: "completed" } : {}),
    ...labelledAmount(first("amount")),
    transactionDate: dateText ? (readDate(dateText, "mdy", reference) ?? undefined) : undefined,
    payerName: first("payer"),
    payerAccount: ocrAccount(payerAccount),
    receiverName: first("receiver"),
    receiverAccount: ocrAccount(receiverAccount),
    description: first("reason"),
  });
}

const AMOUNT = String.raw`(?:ETB|Birr|Br\.?)\s*([\d,]+(?:\.\d+)?)`;
const SMS_DATE = String.raw`\bon\s+(\d{1,2}[/.-](?:\d{1,2}|[A-Za-z]{3,9})[/.-]\d{2,4}(?:\s*(?:at\s*)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?)?)`;
const MODAL = new RegExp(
  String.raw`${AMOUNT}\s*debited\s+from\s+(.+?)\s+for\s+(.+?)\s*-\s*ETB\s*-\s*(\d{4})\b`,
  "i",
);
const SENT = new RegExp(
  String.raw`transferred\s+${AMOUNT}\s+from\s+account\s+(\S+)\s+to\s+account\s+(\S+?)\s*\(([^)]+)\)`,
  "i",
);
const RECEIVED = new RegExp(
  String.raw`received\s+${AMOUNT}\s+from\s+account\s+(\S+)\s*\(([^)]+)\)\s+to\s+your\s+account\s+([\d*xX•]+)`,
  "i",
);
const MOVED = new RegExp(
  String.raw`account\s+([\d*xX•]+)\s+has\s+been\s+(debited|credited)\s+with\s+${AMOUNT}`,
  "i",
);

/** The SMS and the app's success modal (docs/banks.md §2.1), read from the text flattened to one line. */
function messageFields(flat: string, reference: string | null): Partial<Receipt> {
  const parties = messageParties(flat);
  if (!parties) return {};
  const dateText = new RegExp(SMS_DATE, "i").exec(flat)?.[1];
  const transactionDate = dateText ? (readDate(dateText, "dmy", reference) ?? undefined) : undefined;
  return compactReceipt({ status: "completed", currency: "ETB", transactionDate, ...parties });
}

/** The amount and both sides as the modal or one of the SMS wordings states them; null for other text. */
function messageParties(flat: string): Partial<Receipt> | null {
  const dear = /\bDear\s+(.+?)[,.]?\s+(?:You|your)\b/i.exec(flat)?.[1]?.trim();
  const owner = dear && !/^(?:customer|valued\s+customer)$/i.test(dear) ? dear : undefined;
  const amount = (figure: string | undefined) => parseAmount(figure ?? "") ?? undefined;
  const modal = MODAL.exec(flat);
  // The modal shows the receiving account's last four digits only.
  if (modal) {
    return {
      amount: amount(modal[1]),
      payerName: modal[2],
      receiverName: modal[3],
      receiverAccount: modal[4],
    };
  }
  const sent = SENT.exec(flat);
  if (sent) {
    return {
      amount: amount(sent[1]),
      payerName: owner,
      payerAccount: sent[2],
      receiverAccount: sent[3],
      receiverName: sent[4]?.trim(),
    };
  }
  const received = RECEIVED.exec(flat);
  if (received) {
    return {
      amount: amount(received[1]),
      payerAccount: received[2],
      payerName: received[3]?.trim(),
      receiverAccount: received[4],
      receiverName: owner,
    };
  }
  const moved = MOVED.exec(flat);
  if (!moved) return null;
  const debit = moved[2]?.toLowerCase() === "debited";
  // "…transferred to NAME." on a debit; "…credited with ETB 1,000.00 from NAME, on …" on a credit.
  const other = debit
    ? /transferred\s+to\s+(.+?)(?:\.\s|\.$|\s+on\s|\s+with\s|$)/i.exec(flat)?.[1]?.trim()
    : /credited\s+with\s+\S+\s*[\d,.]+\s+from\s+(.+?)\s*(?:,|\.\s|\s+on\s)/i.exec(flat)?.[1]?.trim();
  return {
    amount: amount(moved[3]),
    ...(debit
      ? { payerName: owner, payerAccount: moved[1], receiverName: other }
      : { receiverName: owner, receiverAccount: moved[1], payerName: other }),
  };
}

/** The FT reference a receipt labels as its own (VAT Invoice No / transaction ID), OCR-repaired. */
function labelledReference(values: ReadonlyMap<CbeKey, string[]>, flat: string): string | null {
  for (const value of [...(values.get("reference") ?? []), ...(values.get("vatReceipt") ?? [])]) {
    const found = t24References(value, ["FT"])[0];
    if (found) return found;
  }
  const modal = /transaction\s*ID\s*:?\s*(\S+\s?\S*)/i.exec(flat)?.[1];
  return modal ? (t24References(modal, ["FT"])[0] ?? null) : null;
}

/**
 * The CBE receipt link of the text (mbreciept token or legacy FT + 8 digits), never a feedback link. A link
 * joined with the next line's first word (a button's icon read as "i:" under a token that was whole) has a
 * token too long to be one: the same link unjoined, whose token is whole, wins.
 */
function cbeLink(text: string): { url: string; link: ShareLink } | null {
  const links = bankUrls(joinWrappedToken(text), CBE_HOSTS).flatMap((url) => {
    const parsed = new URL(url);
    const link = parseCbeShareUrl(parsed) ?? repairedLegacyLink(parsed);
    return link ? [{ url, link }] : [];
  });
  return links.find(({ link }) => link.token && isWholeCbeReference(link.token)) ?? links[0] ?? null;
}

/** A legacy id read by OCR: the FT part's day digits and the 8 account digits are digits by shape. */
function repairedLegacyLink(url: URL): ShareLink | null {
  const parsed = new URL(url);
  const id = parsed.searchParams.get("id");
  if (parsed.hostname !== LEGACY_HOST || !id) return null;
  const repaired = repairReference(id, "FT99999XXXXX99999999");
  if (!repaired) return null;
  parsed.searchParams.set("id", repaired);
  return parseCbeShareUrl(parsed);
}

const WRAPPED_TOKEN_LINK = new RegExp(
  String.raw`(https?:\/\/(?:${hosts(SHARE_HOST, API_HOST)})\/)([A-Za-z0-9_-]*)[ \t]*\r?\n[ \t]*([A-Za-z0-9_-]+)`,
  "gi",
);

/**
 * OCR and narrow SMS screens break the token link across lines ("…cbe.com.et/v2" + "-hfHCx…"); the
 * pieces are joined only when the first is not a whole token and the joined one is.
 */
function joinWrappedToken(text: string): string {
  return text.replace(WRAPPED_TOKEN_LINK, (whole, prefix: string, head: string, next: string) => {
    const complete = isCbeToken(head) && !(head.startsWith("v2-") && head.length < V2_LENGTH);
    const joined = `${head}${next}`;
    return !complete && isCbeToken(joined) ? `${prefix}${joined}` : whole;
  });
}

/** A v2 token written without its link ("v2-hfHC…"); its case is kept, only the prefix is certain. */
function textToken(text: string): string | null {
  const match = V2_IN_TEXT.exec(joinWrappedToken(text));
  const token = match?.[1] ? `v2-${match[1]}` : null;
  return token && isCbeToken(token) ? token : null;
}

/** The whole text is one older bare mixed-case token (someone pasted just the id). */
function bareToken(lines: readonly string[]): string | null {
  if (lines.length !== 1) return null;
  const only = lines[0] ?? "";
  return /^[A-Za-z0-9]{8,32}$/.test(only) && /\d/.test(only) && isCbeToken(only) ? only : null;
}
