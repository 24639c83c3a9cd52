/**
 * The amount a receipt page writes out in words ("Amount in Word: ETB SIXTY-FOUR BIRR AND NINETY-SIX
 * CENTS"; CBE, telebirr, BOA, Zemen and CBE Birr print one, docs/banks.md). Read from a photo, it is a second
 * reading of a figure that does not share the figure's look-alike digits.
 */

const UNITS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const SCALES: Record<string, number> = { thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };
const CURRENCY = ["birr", "etb"];
const CENTS = ["cent", "cents", "santim", "santims"];

type Token =
  | { kind: "number"; value: number }
  | { kind: "hundred" }
  | { kind: "scale"; value: number }
  | { kind: "currency" }
  | { kind: "cents" }
  | { kind: "and" };

const VOCABULARY = new Map<string, Token>([
  ...UNITS.map((word, value): [string, Token] => [word, { kind: "number", value }]),
  ...TENS.map((word, at): [string, Token] => [word, { kind: "number", value: (at + 2) * 10 }]),
  ["hundred", { kind: "hundred" }],
  ...Object.entries(SCALES).map(([word, value]): [string, Token] => [word, { kind: "scale", value }]),
  ...CURRENCY.map((word): [string, Token] => [word, { kind: "currency" }]),
  ...CENTS.map((word): [string, Token] => [word, { kind: "cents" }]),
  ["and", { kind: "and" }],
]);

const LABEL = /\bin\s*words?\b\s*:?/i;

/**
 * The amount the page writes in words, or null when it has none or a word of it is not a number word
 * (OCR's one wrong letter in a word of five or more is forgiven: "POUR" is four, "Burr" is birr).
 */
export function amountInWords(text: string): number | null {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => LABEL.test(line));
  if (at === -1) return null;
  const label = lines[at] ?? "";
  const end = LABEL.exec(label);
  // The words may wrap onto the next lines ("TWELVE THOUSAND" / "FIFTEEN Birr AND" / "SIXTY-TWO cents").
  const rest = lines.slice(at + 1, at + 3).join(" ");
  const phrase = `${label.slice((end?.index ?? 0) + (end?.[0].length ?? 0))} ${rest}`;
  return parsePhrase(phrase.toLowerCase().match(/\p{L}+/gu) ?? []);
}

function parsePhrase(words: readonly string[]): number | null {
  let whole: number | null = null;
  let cents: number | null = null;
  let group = 0;
  let total = 0;
  let seen = false;
  let centsOwed = false;
  for (const word of words) {
    const token = tokenOf(word);
    // Before the first number: the currency ("ETB …") and words of the label's language are skipped.
    if (!seen && token?.kind !== "number") continue;
    if (!token) break;
    if (token.kind === "number") {
      group += token.value;
      seen = true;
    } else if (token.kind === "hundred") {
      group = (group === 0 ? 1 : group) * 100;
    } else if (token.kind === "scale") {
      total += (group === 0 ? 1 : group) * token.value;
      group = 0;
    } else if (token.kind === "currency" && whole === null) {
      whole = total + group;
      total = 0;
      group = 0;
    } else if (token.kind === "cents") {
      cents = total + group;
      break;
    } else if (token.kind === "and" && whole !== null) {
      centsOwed = true;
    }
  }
  // "… Birr AND" and then no cents: the words go on where they were not read.
  if (!seen || (centsOwed && cents === null)) return null;
  if (cents !== null && cents > 99) return null;
  if (whole === null) return cents !== null ? cents / 100 : total + group;
  if (cents === null && total + group > 0) return null;
  return whole + (cents ?? 0) / 100;
}

function tokenOf(word: string): Token | null {
  const exact = VOCABULARY.get(word);
  if (exact) return exact;
  if (word.length < 4) return null;
  const near = new Map<string, Token>();
  for (const [known, token] of VOCABULARY) {
    if (oneEditApart(word, known)) near.set(JSON.stringify(token), token);
  }
  // Two different words one letter from the read one: it is neither.
  const [only, ...others] = near.values();
  return others.length === 0 ? (only ?? null) : null;
}

/** Whether `a` becomes `b` by changing, adding or removing one letter. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (a.length < b.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
