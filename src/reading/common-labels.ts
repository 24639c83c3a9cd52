import type { Receipt } from "../banks/types.js";
import { accountOf, nameOf, statusOf } from "./plausible.js";
import { cleanLines, compactReceipt, type Labels, ocrAmount, readLabelledInOrder } from "./receipt-lines.js";

// The labels every bank's receipt page, app screen and PDF share in English ("Amount", "Payer Account",
// "Transaction ID", "Date", "Status"), read in any layout readLabelled knows (same line, glued, tab or
// colon, next line, label column then value column). A bank's own reader knows its receipt better: this
// reading only fills the fields it left empty, and the bank says which printed references are its own.

const LABELS = [
  // Figures that are no transfer amount, and text that is no field: read so their values are not taken
  // for the next label's or for the heading amount.
  [
    "ignored",
    /^(?:(?:Total\s*)?Amount\s*in\s*words?|Amount\s*Debited|Debited\s*Amount|Total\s*(?:amount\s*)?(?:debited|paid)?|Service\s*(?:Charge|Fee)|Commission|VAT(?:\s*\(\s*\d+\s*%\s*\))?|Fees?|(?:Transaction\s*)?Charges?|DRRF|Disaster\s*\w*(?:\s*\w+)?|Excise\s*Tax|Stamp\s*Duty|(?:Available\s*|New\s*|Current\s*)?Balance|Narrative|Reason|Remarks?|Description|Purpose|(?:Transaction\s*)?Type|Branch|Channel|Payment\s*Channel|Order\s*ID)\b/i,
  ],
  [
    "amount",
    /^(?:Transferred\s*Amount|Transaction\s*Amount|Amount\s*Credited|Credited\s*Amount|Amount\s*Transferred|Paid\s*Amount|Amount\s*Paid|Sent\s*Amount|Amount\s*Sent|Settled\s*Amount|Amount)\b/i,
  ],
  [
    "date",
    /^(?:(?:Transaction|Payment|Transfer)\s*(?:Date\s*(?:(?:&|and)\s*Time)?|Time)|Date\s*(?:(?:&|and)\s*Time)?)\b/i,
  ],
  ["status", /^(?:Transaction\s*)?Status\b/i],
  [
    "payerAccount",
    /^(?:Payer(?:'s)?\s*(?:Account|Phone|Mobile|Wallet)(?:\s*(?:No\.?|Number))?|Sender(?:'s)?\s*Account(?:\s*(?:No\.?|Number))?|Source\s*Account|Debit(?:ed)?\s*Account(?!\s*(?:Holder|Name))|From\s*Account|Account\s*Debited)\b/i,
  ],
  [
    "payerName",
    /^(?:Payer(?:'s)?\s*Name|Payer|Sender(?:'s)?\s*Name|Sender|Debtor\s*Name|Debit(?:ed)?\s*Account\s*(?:Holder|Name))\b/i,
  ],
  [
    "receiverAccount",
    /^(?:Receiver(?:'s)?\s*(?:(?:Account|Phone|Mobile|Wallet)(?:\s*(?:No\.?|Number))?|No\.?|Number)|Beneficiary\s*Account(?:\s*(?:No\.?|Number))?|Recipient\s*Account|Payee\s*Account|Credit(?:ed)?\s*Account(?!\s*(?:Holder|Name))|To\s*Account|Destination\s*Account|Creditor\s*Account|Account\s*Credited)\b/i,
  ],
  [
    "receiverName",
    /^(?:Receiver(?:'s)?\s*Name|Receiver|Beneficiary\s*Name|Beneficiary|Recipient\s*Name|Recipient|Payee(?:\s*Name)?|Creditor\s*Name|Credited\s*Party\s*Name|Credit(?:ed)?\s*Account\s*(?:Holder|Name))\b/i,
  ],
  [
    "reference",
    /^(?:(?:Transaction|Transfer|Payment)\s*(?:ID|Id|No\.?|Number|Reference|Ref\.?)|Txn\s*(?:ID|No\.?|Ref\.?)|Trans\.?\s*ID|Reference\s*(?:No\.?|Number|ID)?|Ref\.?\s*(?:No\.?|Number)?|Receipt\s*(?:No\.?|Number)|(?:VAT\s*)?Invoice\s*(?:No\.?|Number)|FT\s*No\.?)(?=[\s:：]|$)/i,
  ],
  // The account holder of a one-sided receipt (the bank's customer, who paid).
  ["customer", /^(?:Customer|Account\s*Holder)(?:'s)?\s*Name\b/i],
  // An "Account" row belongs to the side named in the rows above it.
  ["account", /^Account(?:\s*(?:No\.?|Number))?(?!\s*(?:Holder|Name|Type))\b/i],
  // Also an app screen's sentence line ("has been transferred to BONSA TEREFE").
  ["from", /^(?:From|(?:has\s+been\s+)?Received\s*from|Transaction\s*From)\b/i],
  ["to", /^(?:To|(?:has\s+been\s+)?(?:Sent|Paid|Transferred)\s*to|Transaction\s*To)\b/i],
] as const satisfies Labels<string>;
type Key = (typeof LABELS)[number][0];

/** What the shared labels of a receipt say, and the printed references for the bank to judge. */
export interface CommonReading {
  receipt: Partial<Receipt>;
  /**
   * The date as printed under a date label, or on a line of its own: read by the caller, who knows the
   * reference whose day settles 4/10 against 10/4.
   */
  dateText?: string;
  /** Values of reference labels ("Transaction ID: …", "Ref …"), in the order printed. */
  references: string[];
}

/** A reference named inside a sentence, as SMS print it ("… on 2026-08-14. Transaction ID: DIP7HN3C5B."). */
const REFERENCE_IN_SENTENCE =
  /\b(?:Transaction\s*(?:ID|No\.?|number|Ref(?:erence)?)|Txn\s*(?:ID|No\.?|Ref)|Trans\.?\s*ID|Ref(?:erence)?\s*(?:No\.?|number|ID)?)\s*(?:is\s*)?[:#.]?\s*([A-Za-z0-9][A-Za-z0-9-]{5,30})/gi;

/** A whole-line amount with its currency ("ETB 1,300.00", "2,250.00 Birr"): the app screen's heading. */
const HEADING_AMOUNT =
  /^-?(?:(?:ETB|Br\.?|Birr)\s*[\dOoIl][\dOoIl,]*(?:\.[\dOoIl]{2})?|[\dOoIl][\dOoIl,]*(?:\.[\dOoIl]{2})?\s*\(?(?:ETB|Birr|Br)\)?)$/;
/** A line that is a date and time only ("12 Oct 2026 1:33 PM", "2026/02/09 08:27:50"). */
const DATE_LINE =
  /^(?:\d{1,2}[ /.-](?:\d{1,2}|[A-Za-z]{3,9})[ /.-],?\s*\d{2,4}|\d{4}[/-]\d{1,2}[/-]\d{1,2}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}),?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?$/;
/**
 * A heading saying the money moved ("Transaction Successful", "Success"), or that the document is the
 * transfer's receipt: banks issue one only for a transfer that went through.
 */
const SUCCESS_HEADING =
  /^(?:(?:[A-Za-z-]+\s+){0,2}(?:Transaction|Transfer|Payment)\s+(?:Successful|Completed|Succeeded)|(?:[A-Za-z-]+\s+){0,2}Receipt$|(?:Payment|Money|Transfer)\s+sent|Successful(?:ly)?(?:\s+(?:sent|transferred|paid))?|Success|Completed)\b/i;

export function readCommonLabels(text: string): CommonReading {
  const lines = cleanLines(text).flatMap(splitRun);
  const entries = readLabelledInOrder(lines, LABELS, ["payerName", "receiverName", "customer"]);
  const values = new Map<Key, string[]>();
  for (const [key, value] of entries) values.set(key, [...(values.get(key) ?? []), value]);
  const first = (key: Key) => values.get(key)?.[0];
  const accounts = accountsBySide(entries);
  const from = sideOf(first("from"));
  const to = sideOf(first("to"));
  const dateLines = lines.filter((line) => DATE_LINE.test(line));
  const dateText = first("date") ?? (dateLines.length === 1 ? dateLines[0] : undefined);
  const amountText = first("amount") ?? headingAmount(lines, values);
  // An app shows the sender's side of a transfer as a debit ("-1,500.00(ETB)"): the amount is its size.
  const amount = amountText === undefined ? null : Math.abs(ocrAmount(amountText) ?? 0);
  // A name row may hold the side's account too, or only it ("Recipient 251935402890/WALLET").
  const payer = sideOf(first("payerName"));
  const receiver = sideOf(first("receiverName"));
  const payerName = payer.name ?? from.name ?? nameOf(first("customer"));
  const receiverName = receiver.name ?? to.name;
  const receipt = compactReceipt({
    ...(amount ? { amount, currency: "ETB" } : {}),
    status: values.has("status") ? statusOf(first("status")) : impliedStatus(lines, values),
    payerName,
    payerAccount:
      accountOf(first("payerAccount")) ??
      payer.account ??
      from.account ??
      accounts.payer ??
      accountBelow(lines, payerName),
    receiverName,
    receiverAccount:
      accountOf(first("receiverAccount")) ??
      receiver.account ??
      to.account ??
      accounts.receiver ??
      accountBelow(lines, receiverName),
  });
  const labelled = (values.get("reference") ?? []).map((value) => value.trim().split(/\s+/)[0] ?? "");
  const inSentences = [...lines.join("\n").matchAll(REFERENCE_IN_SENTENCE)].map((match) => match[1] ?? "");
  const references = [...labelled, ...inSentences]
    .map((word) => word.replace(/[.,;:]+$/, ""))
    .filter(Boolean);
  return { receipt, references, ...(dateText ? { dateText } : {}) };
}

/**
 * "Customer Name: X" / "Account Number: 1000****6621" is the payer's account; "To: NAME" / "Account: …"
 * the receiver's. An "Account" row with no side named above it is nobody's.
 */
function accountsBySide(entries: readonly [Key, string][]): { payer?: string; receiver?: string } {
  const out: { payer?: string; receiver?: string } = {};
  let side: "payer" | "receiver" | undefined;
  for (const [key, value] of entries) {
    if (key === "payerName" || key === "customer" || key === "from" || key === "payerAccount") side = "payer";
    else if (key === "receiverName" || key === "to" || key === "receiverAccount") side = "receiver";
    else if (key === "account" && side && out[side] === undefined) {
      const account = accountOf(value);
      if (account) out[side] = account;
    }
  }
  return out;
}

/** Any label of LABELS followed by a colon, anywhere on a line. */
const ANY_LABEL = LABELS.map(([, pattern]) => pattern.source.replace(/^\^/, "").replace(/\\b$/, "")).join(
  "|",
);
const LABEL_WITH_COLON = new RegExp(`(?:${ANY_LABEL})\\s*:`, "gi");
/** In a flattened page, a label without its colon still starts a row when a figure follows it. */
const LABEL_BEFORE_FIGURE = new RegExp(`(?:${ANY_LABEL})(?=\\s*(?:ETB|Birr|Br\\b|\\d))`, "gi");

/**
 * A page flattened onto one line ("Sender Name: ABEBE KEBEDE Sender Account Number: 1234 …"): where two or
 * more labels with colons stand on one line, each starts a line of its own.
 */
function splitRun(line: string): string[] {
  const atWordStart = (at: number) => at === 0 || /\s/.test(line[at - 1] ?? "");
  const starts = [...line.matchAll(LABEL_WITH_COLON)].map((match) => match.index).filter(atWordStart);
  if (starts.length < 2) return [line];
  const beforeFigures = [...line.matchAll(LABEL_BEFORE_FIGURE)]
    .map((match) => match.index)
    .filter(atWordStart);
  const cuts = [...new Set([...starts, ...beforeFigures])].filter((at) => at > 0).sort((a, b) => a - b);
  const bounds = [0, ...cuts, line.length];
  return bounds
    .slice(0, -1)
    .map((start, i) => line.slice(start, bounds[i + 1]).trim())
    .filter(Boolean);
}

/**
 * Without a status row: a heading that says the money moved, or a record of the transfer itself (a labelled
 * amount, reference and side), which banks issue only for a transfer that went through.
 */
function impliedStatus(
  lines: readonly string[],
  values: ReadonlyMap<Key, string[]>,
): "completed" | undefined {
  if (lines.some((line) => SUCCESS_HEADING.test(line))) return "completed";
  const side = ["payerName", "receiverName", "customer", "from", "to"].some((key) => values.has(key as Key));
  return values.has("amount") && values.has("reference") && side ? "completed" : undefined;
}

/** "Transaction To" / "Hirut Desta" / "2519****6645": an account alone on the line under a side's name. */
function accountBelow(lines: readonly string[], name: string | undefined): string | undefined {
  if (!name) return undefined;
  const at = lines.findIndex(
    (line) => line === name || line.endsWith(` ${name}`) || line.endsWith(`:${name}`),
  );
  const below = at === -1 ? undefined : lines[at + 1];
  return below !== undefined && accountOf(below) === below ? below : undefined;
}

/** The one heading amount of an app screen, when no label claims it and no other figure competes. */
function headingAmount(lines: readonly string[], values: ReadonlyMap<Key, string[]>): string | undefined {
  const labelled = new Set([...values.values()].flat());
  // A label's value is stored without its leading sign ("Total" / "-1,503.00(ETB)").
  const isLabelled = (line: string) => labelled.has(line) || labelled.has(line.replace(/^-\s*/, ""));
  const headings = lines.filter((line) => HEADING_AMOUNT.test(line) && !isLabelled(line));
  return headings.length === 1 ? headings[0] : undefined;
}

/** "From"/"To" rows hold an account, a name, or both ("0976765611 - NAME"). */
function sideOf(value: string | undefined): { name?: string; account?: string } {
  if (!value) return {};
  // "0976765611 - NAME", "NAME - 1000****7719", "NAME (251710***388)"
  const parts = value.split(/\s+-\s+|\s*[()]\s*/).filter(Boolean);
  const account = parts.map((part) => accountOf(part)).find(Boolean);
  const name = parts.map((part) => nameOf(part)).find(Boolean);
  return { ...(account ? { account } : {}), ...(name ? { name } : {}) };
}
