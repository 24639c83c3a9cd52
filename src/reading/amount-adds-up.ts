import { amountInWords } from "./amount-in-words.js";
import { FEE_WORDS } from "./fee-words.js";
import { parseAmount } from "./parse-utils.js";

/** A line that states a fee, a tax or a levy charged on top of the transfer. */
const FEE_LINE = new RegExp(String.raw`\b(?:${FEE_WORDS})\b`, "i");
const TOTAL_LINE = /^\W*total\b/i;
const DISCOUNT_LINE = /\bdiscount\b/i;
/** A money figure with its cents, as receipt pages print them ("69,619.00", "7.50"; OCR's "0,80"). */
const FIGURE = /(?<![\d.,])(?:(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}|\d+,\d{2})(?![\d.,])/g;

/** The figures of a page's arithmetic: its total, and its fees less its discounts. */
interface PageSums {
  total: number;
  extras: number;
}

/** The page's total and fees, when it prints a total and at least one fee line. */
function pageSums(text: string): PageSums | null {
  let total: number | null = null;
  let extras = 0;
  let feeLines = 0;
  for (const line of text.split("\n")) {
    const figures = [...line.matchAll(FIGURE)];
    const last = figures.at(-1);
    if (!last) continue;
    // A comma before two last digits is OCR's decimal point: thousands come in threes.
    const value = parseAmount(last[0].replace(/,(\d{2})$/, ".$1"));
    if (value === null) continue;
    if (TOTAL_LINE.test(line)) {
      total ??= value;
    } else if (DISCOUNT_LINE.test(line)) {
      extras -= value;
    } else if (FEE_LINE.test(line)) {
      extras += value;
      feeLines++;
    }
  }
  return total !== null && feeLines > 0 ? { total, extras } : null;
}

/**
 * Whether a page's own arithmetic vouches for `amount`: the transfer, plus every fee line, less any
 * discount, makes the total it prints (CBE: 2,900.00 + 5.32 + 0.80 + 0.27 = 2,906.39). Figures OCR read
 * separately do not add up by chance, so an amount OCR was unsure of can be kept when they do.
 */
export function amountAddsUp(text: string, amount: number): boolean {
  const sums = pageSums(text);
  return sums !== null && cents(amount + sums.extras) === cents(sums.total);
}

/**
 * The transfer amount of a photographed page as its figures agree on it. When the transfer and the fees do
 * not make the total, and the amount in words says that total, one of the figures is misread: the total
 * less the fees is taken when it differs from the transfer read in one digit (64.55 read for 64.35).
 * Otherwise `amount` as read: a fee misread as well leaves nothing certain to mend it with.
 */
export function amountAsPageSays(text: string, amount: number): number {
  const sums = pageSums(text);
  if (sums === null || cents(amount + sums.extras) === cents(sums.total)) return amount;
  const words = amountInWords(text);
  const transfer = cents(sums.total - sums.extras);
  const mended =
    words !== null && cents(words) === cents(sums.total) && oneDigitApart(cents(amount), transfer);
  return mended ? transfer / 100 : amount;
}

const cents = (value: number) => Math.round(value * 100);

function oneDigitApart(a: number, b: number): boolean {
  const [x, y] = [String(a), String(b)];
  return x.length === y.length && [...x].filter((digit, at) => digit !== y[at]).length === 1;
}
