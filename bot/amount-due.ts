import { parseAmount } from "../src/reading/parse-utils.js";

// What the customer owes, when the cashier says so: a caption that is only an amount ("1500", "1,500.00",
// "1500 birr", "ብር 1500"); beside a link or reference, an amount on its line, or alone on the one other
// line of a two-line message. A longer text (a pasted SMS, a receipt page) is the receipt itself and its
// figures are not what is due.

const FIGURE = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,7}(?:\.\d{1,2})?)`;
const CURRENCY = String.raw`(?:ETB|Birr|Br\.?|ብር)`;
const ONLY_AMOUNT = new RegExp(String.raw`^(?:${CURRENCY}\s*)?${FIGURE}(?:\s*${CURRENCY})?$`, "iu");

/** The amount a caption states alone, or the cashier's message states beside the given link or reference. */
export function amountDue(text: string | undefined, beside: string | null = null): number | null {
  if (!text) return null;
  if (beside === null) return amountAlone(text);
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const own = lines.find((line) => line.includes(beside));
  if (own === undefined) return null;
  const rest = own.replace(beside, " ").trim();
  if (rest) return amountAlone(rest);
  // "1500" above or below the link: the message is the cashier's own only when it holds nothing else.
  const others = lines.filter((line) => line !== own);
  return others.length === 1 ? amountAlone(others[0] ?? "") : null;
}

function amountAlone(text: string): number | null {
  const match = ONLY_AMOUNT.exec(text.replace(/\s+/g, " ").trim());
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
