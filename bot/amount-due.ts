import { parseAmount } from "../src/reading/parse-utils.js";

// What the customer owes, when the cashier says so: a caption that is only an amount ("1500", "1,500.00",
// "1500 birr", "ብር 1500"), or the line of a link or reference that holds nothing else. A longer text (a
// pasted SMS, a receipt page) is the receipt itself and its figures are not what is due.

const FIGURE = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,7}(?:\.\d{1,2})?)`;
const CURRENCY = String.raw`(?:ETB|Birr|Br\.?|ብር)`;
const ONLY_AMOUNT = new RegExp(String.raw`^(?:${CURRENCY}\s*)?${FIGURE}(?:\s*${CURRENCY})?$`, "iu");

/** The amount a caption or a message line states alone, beside the given link or reference; else null. */
export function amountDue(text: string | undefined, beside: string | null = null): number | null {
  if (!text) return null;
  const lines = text.split(/\r?\n/);
  const line = beside ? lines.find((candidate) => candidate.includes(beside)) : text;
  if (line === undefined) return null;
  const rest = (beside ? line.replace(beside, " ") : line).replace(/\s+/g, " ").trim();
  const match = ONLY_AMOUNT.exec(rest);
  const amount = match ? parseAmount(match[1] ?? "") : null;
  return amount !== null && amount > 0 ? amount : null;
}

/** How the paid amount compares with the amount due: matches, short by, over by (in birr). */
export function compareWithDue(
  paid: number,
  due: number,
): { kind: "matches" } | { kind: "short" | "over"; by: number } {
  const difference = Math.round((paid - due) * 100) / 100;
  if (Math.abs(difference) < 0.005) return { kind: "matches" };
  return difference < 0 ? { kind: "short", by: -difference } : { kind: "over", by: difference };
}
