import type { Receipt } from "../banks/types.js";
import { accountOf, nameOf, statusOf } from "./plausible.js";
import { cleanLines, compactReceipt, type Labels, ocrAmount, readLabelled } from "./receipt-lines.js";
import { type DayOrder, readDate } from "./t24.js";

// The labels every bank's receipt page, app screen and PDF share in English ("Amount", "Payer Account",
// "Transaction ID", "Date", "Status"), read in any layout readLabelled knows (same line, glued, tab or
// colon, next line, label column then value column). A bank's own reader knows its receipt better: this
// reading only fills the fields it left empty, and the bank says which printed references are its own.

const LABELS = [
  // Figures that are no transfer amount, and text that is no field: read so their values are not taken
  // for the next label's or for the heading amount.
  [
    "ignored",
    /^(?:(?:Total\s*)?Amount\s*in\s*words?|Total\s*(?:amount\s*)?(?:debited|paid)?|Service\s*(?:Charge|Fee)|Commission|VAT(?:\s*\(\s*\d+\s*%\s*\))?|Fees?|(?:Transaction\s*)?Charges?|DRRF|Disaster\s*\w*(?:\s*\w+)?|Excise\s*Tax|Stamp\s*Duty|(?:Available\s*|New\s*|Current\s*)?Balance|Narrative|Reason|Remarks?|Description|Purpose|(?:Transaction\s*)?Type|Branch|Channel|Payment\s*Channel|Order\s*ID|Invoice\s*No\.?)\b/i,
  ],
  [
    "amount",
    /^(?:Transferred\s*Amount|Transaction\s*Amount|Amount\s*Transferred|Paid\s*Amount|Amount\s*Paid|Sent\s*Amount|Amount\s*Sent|Settled\s*Amount|Amount)\b/i,
  ],
  [
    "date",
    /^(?:(?:Transaction|Payment|Transfer)\s*Date\s*(?:(?:&|and)\s*Time)?|Date\s*(?:(?:&|and)\s*Time)?)\b/i,
  ],
  ["status", /^(?:Transaction\s*)?Status\b/i],
  [
    "payerAccount",
    /^(?:Payer(?:'s)?\s*Account(?:\s*(?:No\.?|Number))?|Sender(?:'s)?\s*Account(?:\s*(?:No\.?|Number))?|Source\s*Account|Debit(?:ed)?\s*Account|From\s*Account|Account\s*Debited)\b/i,
  ],
  ["payerName", /^(?:Payer(?:'s)?\s*Name|Payer|Sender(?:'s)?\s*Name|Sender|Debtor\s*Name)\b/i],
  [
    "receiverAccount",
    /^(?:Receiver(?:'s)?\s*Account(?:\s*(?:No\.?|Number))?|Beneficiary\s*Account(?:\s*(?:No\.?|Number))?|Recipient\s*Account|Credit(?:ed)?\s*Account|To\s*Account|Destination\s*Account|Creditor\s*Account|Account\s*Credited)\b/i,
  ],
  [
    "receiverName",
    /^(?:Receiver(?:'s)?\s*Name|Receiver|Beneficiary\s*Name|Beneficiary|Recipient\s*Name|Recipient|Creditor\s*Name|Credited\s*Party\s*Name)\b/i,
  ],
  [
    "reference",
    /^(?:Transaction\s*(?:ID|Id|No\.?|Number|Reference|Ref\.?)|Txn\s*(?:ID|No\.?|Ref\.?)|Trans\.?\s*ID|Reference\s*(?:No\.?|Number|ID)?|Ref\.?\s*(?:No\.?|Number)?|Receipt\s*(?:No\.?|Number)|FT\s*No\.?)(?=[\s:：]|$)/i,
  ],
  ["from", /^From\b/i],
  ["to", /^To\b/i],
] as const satisfies Labels<string>;
type Key = (typeof LABELS)[number][0];

/** What the shared labels of a receipt say, and the printed references for the bank to judge. */
export interface CommonReading {
  receipt: Partial<Receipt>;
  /** Values of reference labels ("Transaction ID: …", "Ref …"), in the order printed. */
  references: string[];
}

/** A reference named inside a sentence, as SMS print it ("… on 2026-08-14. Transaction ID: DIP7HN3C5B."). */
const REFERENCE_IN_SENTENCE =
  /\b(?:Transaction\s*(?:ID|No\.?|number|Ref(?:erence)?)|Txn\s*(?:ID|No\.?|Ref)|Trans\.?\s*ID|Ref(?:erence)?\s*(?:No\.?|number|ID)?)\s*(?:is\s*)?[:#.]?\s*([A-Za-z0-9][A-Za-z0-9-]{5,30})/gi;

/** A whole-line amount with its currency ("ETB 1,300.00", "2,250.00 Birr"): the app screen's heading. */
const HEADING_AMOUNT =
  /^(?:(?:ETB|Br\.?|Birr)\s*[\dOoIl][\dOoIl,]*(?:\.[\dOoIl]{2})?|[\dOoIl][\dOoIl,]*(?:\.[\dOoIl]{2})?\s*(?:ETB|Birr|Br))$/;
/**
 * A heading saying the money moved ("Transaction Successful", "Success"), or that the document is the
 * transfer's receipt: banks issue one only for a transfer that went through.
 */
const SUCCESS_HEADING =
  /^(?:(?:Transaction|Transfer|Payment)\s+(?:Successful|Completed|Succeeded|Receipt)|Successful(?:ly)?(?:\s+(?:sent|transferred|paid))?|Success|Completed)\b/i;

export function readCommonLabels(
  text: string,
  options: { dayOrder?: DayOrder; reference?: string | null } = {},
): CommonReading {
  const lines = cleanLines(text);
  const values = readLabelled(lines, LABELS, ["payerName", "receiverName"]);
  const first = (key: Key) => values.get(key)?.[0];
  const from = sideOf(first("from"));
  const to = sideOf(first("to"));
  const dateText = first("date");
  const amountText = first("amount") ?? headingAmount(lines, values);
  const amount = amountText === undefined ? null : ocrAmount(amountText);
  const receipt = compactReceipt({
    ...(amount !== null && amount > 0 ? { amount, currency: "ETB" } : {}),
    transactionDate: dateText
      ? (readDate(dateText, options.dayOrder ?? "dmy", options.reference ?? null) ?? undefined)
      : undefined,
    status:
      statusOf(first("status")) ??
      (lines.some((line) => SUCCESS_HEADING.test(line)) ? "completed" : undefined),
    payerName: nameOf(first("payerName")) ?? from.name,
    payerAccount: accountOf(first("payerAccount")) ?? from.account,
    receiverName: nameOf(first("receiverName")) ?? to.name,
    receiverAccount: accountOf(first("receiverAccount")) ?? to.account,
  });
  const labelled = (values.get("reference") ?? []).map((value) => value.trim().split(/\s+/)[0] ?? "");
  const inSentences = [...lines.join("\n").matchAll(REFERENCE_IN_SENTENCE)].map((match) => match[1] ?? "");
  const references = [...labelled, ...inSentences]
    .map((word) => word.replace(/[.,;:]+$/, ""))
    .filter(Boolean);
  return { receipt, references };
}

/** The one heading amount of an app screen, when no label claims it and no other figure competes. */
function headingAmount(lines: readonly string[], values: ReadonlyMap<Key, string[]>): string | undefined {
  const labelled = new Set([...values.values()].flat());
  const headings = lines.filter((line) => HEADING_AMOUNT.test(line) && !labelled.has(line));
  return headings.length === 1 ? headings[0] : undefined;
}

/** "From"/"To" rows hold an account, a name, or both ("0976765611 - NAME"). */
function sideOf(value: string | undefined): { name?: string; account?: string } {
  if (!value) return {};
  // "0976765611 - NAME" or "NAME - 1000****7719"
  const parts = value.split(/\s+-\s+/);
  const account = parts.map((part) => accountOf(part)).find(Boolean);
  const name = parts.map((part) => nameOf(part)).find(Boolean);
  return { ...(account ? { account } : {}), ...(name ? { name } : {}) };
}
