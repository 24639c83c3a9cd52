import type { Receipt } from "../banks/types.js";
import { parseAmount } from "./parse-utils.js";
import { normalizeText, repairReference } from "./text.js";

// Helpers shared by the receipt-text parsers of several banks: text clean-up, labels, OCR's look-alike
// letters in figures and accounts, the issuer check. Bank-specific readings stay in the bank's file.

// --- lines and labels ---

/** [key, label at the start of a line]; earlier entries win, so longer labels go first. */
export type Labels<K extends string> = readonly (readonly [K, RegExp])[];

/**
 * A bank's label sources (its labels.ts) as patterns: one label alone (pdf-labels' readers anchor it
 * themselves), or any of several at the start of a line, case-insensitive.
 */
export function labelPatterns<K extends string>(labels: Readonly<Record<K, string>>) {
  return {
    labelPattern: (label: K): RegExp => new RegExp(labels[label]),
    startsWithLabel: (...keys: readonly K[]): RegExp =>
      new RegExp(`^(?:${keys.map((key) => labels[key]).join("|")})`, "i"),
  };
}

// Quote marks too: OCR reads a speck before a label as one ("‘Transferred Amount").
const STRAY_START = /^[\s|~•·¦«»_=>#:;,‘’‚`'"“”]+/;
const STRAY_END = /[\s|~•·¦«»_=<#]+$/;
/** An Amharic label before its English twin ("የከፋይ ስም/Payer Name"): only the English one is read. */
const ETHIOPIC_PREFIX =
  /^[\u1200-\u139F\u2D80-\u2DDF][\u1200-\u139F\u2D80-\u2DDF\s.:/()-]*\/?\s*(?=[A-Za-z])/;

/** An Amharic label after its English twin ("RECEIVER NAME / የተቀባይ ስም"): only the English one is read. */
const ETHIOPIC_SUFFIX =
  /(?<=[A-Za-z.])\s*\/\s*[\u1200-\u139F\u2D80-\u2DDF][\u1200-\u139F\u2D80-\u2DDF\s.:/()-]*$/;

/**
 * Receipt text as lines for label reading: Unicode and spacing normalised, OCR's lookalike letters in
 * amounts/dates/times turned back into digits, stray border characters and Amharic label halves dropped.
 */
export function cleanLines(text: string): string[] {
  // Bank detection asks every bank's parser about the same text, and most start here: read it once.
  if (text !== lastCleaned.text) lastCleaned = { text, lines: readCleanLines(text) };
  return [...lastCleaned.lines];
}

let lastCleaned: { text: string; lines: readonly string[] } = { text: "", lines: [] };

function readCleanLines(text: string): string[] {
  return normalizeText(repairFigures(text))
    .split("\n")
    .map((line) =>
      line
        .replace(STRAY_START, "")
        .replace(STRAY_END, "")
        .replace(ETHIOPIC_PREFIX, "")
        .replace(ETHIOPIC_SUFFIX, "")
        .replace(/\s[|~•¦]+\s/g, " ")
        .trim(),
    )
    .filter(Boolean);
}

/**
 * Receipt text with its line structure kept: Unicode and spacing normalised, and OCR noise (bars, bullets,
 * tildes, "=" before an SMS link) standing alone between words removed.
 */
export function withoutOcrMarks(text: string): string {
  return normalizeText(text)
    .split("\n")
    .map((line) =>
      line
        .replace(/(^|\s)[|~•·»«©®¦=_]+(?=\s|$)/g, "$1")
        .replace(/ {2,}/g, " ")
        .trim(),
    )
    .join("\n");
}

/**
 * Values by label, in the layouts receipts come in: the rest of the label's line (also glued to it, as PDF
 * text extraction leaves "Transferred amountETB 4,600.00"); the next line when that is not a label itself;
 * a column of labels followed by a column of values in the same order; or the line just above a label that
 * has nothing after or below it. Keys in `wrapping` take following all-capitals lines too (names wrap on
 * narrow receipts).
 */
export function readLabelled<K extends string>(
  lines: readonly string[],
  labels: Labels<K>,
  wrapping: readonly K[] = [],
): Map<K, string[]> {
  const found = new Map<K, string[]>();
  for (const [key, value] of readLabelledInOrder(lines, labels, wrapping)) {
    found.set(key, [...(found.get(key) ?? []), value]);
  }
  return found;
}

/** readLabelled's values in the order the receipt gives them, for labels whose meaning follows the rows above. */
export function readLabelledInOrder<K extends string>(
  lines: readonly string[],
  labels: Labels<K>,
  wrapping: readonly K[] = [],
): [K, string][] {
  const labelAt = (line: string | undefined) => {
    if (line === undefined) return undefined;
    for (const form of [line, deglued(line)]) {
      for (const [key, pattern] of labels) {
        const match = pattern.exec(form);
        if (match?.index === 0) return { key, rest: withoutGluedLabelEnd(form.slice(match[0].length)) };
      }
    }
    return undefined;
  };
  const found: [K, string][] = [];
  const record = (key: K, value: string) => {
    if (value) found.push([key, value]);
  };
  const aboveValues = valuesAboveLabels(lines, labelAt);
  if (aboveValues) {
    for (const [i, hit] of aboveValues)
      record(hit.key, separatorsOff(hit.rest) || separatorsOff(lines[i - 1] ?? ""));
    return found;
  }
  /** How many lines from `start` on are no label: the length of a column of values. */
  const valuesRun = (start: number) => {
    let end = start;
    while (end < lines.length && !labelAt(lines[end])) end++;
    return end - start;
  };
  /** Labels of a column waiting for the column of values below it. */
  let column: K[] = [];
  /** The line above, when it is no label and no label's value. */
  let loose: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? "";
    let hit = labelAt(line);
    // OCR wraps a label's words over two lines ("Transaction" / "Date 01/06/2026").
    const joined = hit || lines[i + 1] === undefined ? undefined : labelAt(`${line} ${lines[i + 1]}`);
    if (joined && !labelAt(lines[i + 1])) {
      i++;
      line = `${line} ${lines[i]}`;
      hit = joined;
    }
    if (!hit) {
      // A column of values is taken only when it is as long as its column of labels: OCR drops a value
      // now and then ("1******09"), and every value after it would then sit under the wrong label.
      if (column.length > 0 && valuesRun(i) !== column.length) column = [];
      const key = column.shift();
      if (key !== undefined) record(key, separatorsOff(line));
      else loose = line;
      continue;
    }
    // "VAT (15%)": a bracket right after the label is part of it, not its value.
    let value = separatorsOff(hit.rest.replace(/^\s*\([^)]*\)/, ""));
    const next = lines[i + 1];
    const nextLabel = labelAt(next);
    const nextIsBare = nextLabel !== undefined && !separatorsOff(nextLabel.rest.replace(/^\s*\([^)]*\)/, ""));
    if (!value && next !== undefined && !nextLabel && column.length === 0) {
      i++;
      value = separatorsOff(next);
    } else if (!value && (nextIsBare || column.length > 0)) {
      column.push(hit.key);
    } else if (!value && loose && /\d/.test(loose)) {
      // A value printed above its label ("12/12/2025 03:30 PM" then "Transaction Date").
      value = separatorsOff(loose);
    }
    if (value) column = [];
    loose = undefined;
    if (value && wrapping.includes(hit.key)) {
      while (/^[A-Z][A-Z .'&-]{1,40}$/.test(lines[i + 1] ?? "") && !labelAt(lines[i + 1])) {
        i++;
        value = `${value} ${lines[i]}`;
      }
    }
    record(hit.key, value);
  }
  return found;
}

/**
 * "Payer NameBethlehem Assefa" read with the label "Payer": the end of a longer form of the label, glued
 * to the value by PDF text extraction, is no part of the value.
 */
export function withoutGluedLabelEnd(rest: string): string {
  return rest.replace(/^\s*(?:Name|Number|No\.?)(?=[A-Z0-9])/, "");
}

/**
 * PDF text that puts every value on the line above its label ("YOHANNES ALEMAYEHU" / "Customer Name:" …
 * "1,505.75" / "Total Paid Amount"): the text ends with a label that has no value (prose after it aside),
 * and every label without a value of its own has a line that is no label above it. Returns the labels by
 * line when the text is so.
 */
function valuesAboveLabels<K extends string>(
  lines: readonly string[],
  labelAt: (line: string | undefined) => { key: K; rest: string } | undefined,
): [number, { key: K; rest: string }][] | null {
  const hits: [number, { key: K; rest: string }][] = [];
  for (const [i, line] of lines.entries()) {
    const hit = labelAt(line);
    if (hit) hits.push([i, hit]);
  }
  const bare = hits.filter(([, hit]) => !separatorsOff(hit.rest));
  const last = hits.at(-1);
  if (bare.length < 3 || !last || separatorsOff(last[1].rest)) return null;
  if (lines.slice(last[0] + 1).some((line) => !isProse(line))) return null;
  const valueAbove = bare.filter(([i]) => i > 0 && !labelAt(lines[i - 1]));
  return valueAbove.length === bare.length ? hits : null;
}

/** A sentence (a balance notice, a footer): four words of letters or more, no field's value. */
export function isProse(line: string): boolean {
  return line.split(/\s+/).filter((word) => /^[A-Za-z]{2,}[.,:;]?$/.test(word)).length >= 4;
}

/** "Source Account1*****3390" → "Source Account 1*****3390": a small letter glued to a capital or digit. */
function deglued(line: string): string {
  // "AMOUNT1,800.00": a capitals label glued to its figure.
  // A dot ends a label only after a letter ("No.1000…"); between digits it is a decimal point.
  return line
    .replace(/([a-z)'’]|(?<=[A-Za-z])\.)(?=[A-Z0-9*])/g, "$1 ")
    .replace(/^([A-Z][A-Z %]*[A-Z])(?=\d)/, "$1 ");
}

function separatorsOff(value: string): string {
  return value
    .replace(/^[\s:：|~>•=–-]+/, "")
    .replace(/[\s|~•]+$/, "")
    .trim();
}

/** A labelled amount: its figure, and ETB (the only currency these receipts print) whenever one is labelled. */
export function labelledAmount(text: string | undefined): Partial<Receipt> {
  return text ? { amount: parseAmount(text) ?? undefined, currency: "ETB" } : {};
}

// --- OCR's look-alike letters in figures and accounts ---

/** The digit each of OCR's look-alike letters stands for; each reader says which of them it trusts. */
const DIGIT_FOR: Record<string, string> = { O: "0", o: "0", I: "1", l: "1", "|": "1", S: "5", B: "8" };

/** A month's name inside a date figure: its letters are no digits ("Oct" is not "0ct"). */
const MONTH_NAME = /((?<![A-Za-z])(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*)/;

const FIGURE_LIKE = [
  // Amounts with two decimals: "1,25O.OO", "6O.00 Birr", "ETB 48O.50", "1,|07.59". One starting with a
  // real digit may follow a letter (pdf-parse glues values to labels: "Amount3,25O.OO"); one starting with
  // a look-alike may not. Never from after a comma or dot: that is the middle of a figure whose start is
  // unreadable ("|,6OO.00" must not become 600). A bar is a 1 only inside the figure (before it, a border).
  /(?:(?<=^|[^0-9A-Za-z.,]|ETB|Br)[OoIlS]|(?<![.,])\d)[0-9OoIlS|,]*\.[0-9OoIl|]{2}(?![0-9OoIlS|])/g,
  // numeric dates: "18-O7-2025", "2026-O9-03", "5/2O/2026", "24/7/26"
  /(?<![0-9A-Za-z])[0-9OoIlS]{1,4}[-/][0-9OoIlS]{1,2}[-/][0-9OoIlS]{2,4}(?![0-9A-Za-z])/g,
  // dates with a month name: "29-Jun-2O25", "May 2O, 2026", "l4 Jul 2026" (the month keeps its letters)
  /(?<![0-9A-Za-z])[0-9OoIlS]{1,2}-[A-Za-z]{3,9}-[0-9OoIlS]{4}(?![0-9A-Za-z])/g,
  /(?<![0-9A-Za-z])(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+[0-9OoIlS]{1,2},?\s+[0-9OoIlS]{4}(?![0-9A-Za-z])/g,
  /(?<![0-9A-Za-z])[0-9OoIlS]{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?,?\s+[0-9OoIlS]{4}(?![0-9A-Za-z])/g,
  // times: "19:58:2O", "1O:12PM"
  /(?<![0-9A-Za-z])[0-9OoIlS]{1,2}:[0-9OoIlS]{2}(?::[0-9OoIlS]{2})?(?=[AaPp][Mm]|[^0-9A-Za-z]|$)/g,
];

/**
 * Turns OCR's O/o/I/l/S back into digits inside figures of amounts, dates and times that hold at least one
 * real digit; a month name between a date's figures keeps its letters.
 */
export function repairFigures(text: string): string {
  return FIGURE_LIKE.reduce(
    (out, pattern) =>
      out.replace(pattern, (figure) => {
        if (!/\d/.test(figure)) return figure;
        return figure
          .split(MONTH_NAME)
          .map((part, index) =>
            index % 2 === 1 ? part : part.replace(/[OoIl|S]/g, (ch) => DIGIT_FOR[ch] ?? ch),
          )
          .join("");
      }),
    text,
  );
}

/**
 * Look-alike letters in whole words that are numbers: a word of digits, look-alikes and number punctuation
 * that starts with a digit or look-alike and holds a real digit. For values already known to be figures,
 * and for SMS text whose reference was taken from the printed text.
 */
export function ocrDigits(value: string): string {
  return value.replace(/(?<![A-Za-z])[\dOoIl|SB,.:/-]+(?![A-Za-z])/g, (word) =>
    /\d/.test(word) && /^[\dOoIl|SB]/.test(word)
      ? word.replace(/[OoIl|SB]/g, (ch) => DIGIT_FOR[ch] ?? ch)
      : word,
  );
}

/** "ETB 1,25O.OO" → 1250: the first number of the value, look-alike letters inside it read as digits. */
export function ocrAmount(value: string | undefined): number | null {
  const words = (value ?? "").replace(/ETB|Birr|Br\.?/gi, " ").matchAll(/-?[\dOoIlSB][\dOoIlSB,.]*/g);
  const number = [...words].find((word) => /\d/.test(word[0]));
  return number ? parseAmount(ocrDigits(number[0])) : null;
}

/**
 * An account number or phone as OCR read it: where the number is digits, mask characters and spacing only,
 * OCR's O/o/I/l/| are digits too ("99OOO5O363768", "5014******2O8"). A "/BANK" or "/WALLET" suffix is kept
 * as printed; anything with letters (an "ETB…" settlement id, a name) stays as printed.
 */
export function ocrAccount(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const account = value.trim();
  const [number = "", ...suffix] = account.split("/");
  if (!/^\+?[\dOoIl|*xX•#%\s-]+$/.test(number) || !/\d/.test(number)) return account;
  return [number.replace(/[OoIl|]/g, (ch) => DIGIT_FOR[ch] ?? ch), ...suffix].join("/");
}

// --- references, the issuer, the claim ---

/**
 * A reference that opens with two letters (telebirr, M-Pesa), repaired by `shape` and kept when it then
 * fits `valid`. A figure (a phone, an invoice number) is never read into a reference's letters
 * ("2520600871" → "ZS2060…"): the word needs a letter among its first two and two letters in all.
 */
export function repairLetteredReference(raw: string, shape: string, valid: RegExp): string | null {
  const word = raw.trim();
  if (!/[A-Za-z]/.test(word.slice(0, 2)) || (word.match(/[A-Za-z]/g)?.length ?? 0) < 2) return null;
  const fixed = repairReference(word, shape);
  return fixed && valid.test(fixed) ? fixed : null;
}

/** Labels naming the other bank of a transfer: a name after them is the counterparty, not the issuer. */
const COUNTERPARTY =
  /bank\s*name|institut|credited\s*party|beneficiary|receiver|recipient|creditor|other\s*bank|destination|sender'?s?\s*bank|source\s*bank|(?:to|from)\s*bank/i;
/** Words right before a name that make it the other side ("to Awash Bank", "Beneficiary Bank: …", "your DASHEN"). */
const COUNTERPARTY_BEFORE =
  /(?:beneficiary\s+bank(?:\s+name)?|institu\w*\s+name|bank\s+name|receiver'?s?\s+bank|credited\s+party\s+name|\b(?:to|in|at|via|from)(?:\s*the|\s+your)?)\s*[:;|\-–]*\s*$/i;
/** Words right after a name that make it the other side ("… Awash Bank account 0142"). */
const COUNTERPARTY_AFTER = /^\s*(?:bank\s*)?(?:account|a\/c)\b/i;

/**
 * Whether the text names `name` as the bank that issued it. Receipts of other banks name it too, as the
 * other side of a transfer ("Beneficiary Bank", "Credited Party name", "Bank Name", "to … account"): those
 * mentions do not count, whether the words that say so stand before it on its line or right before it
 * across a line break (40 characters), right after it on its line, or as a label on one of the two lines above.
 */
export function namesIssuer(lines: readonly string[], name: RegExp): boolean {
  const global = new RegExp(name.source, name.flags.includes("g") ? name.flags : `${name.flags}g`);
  const text = lines.join("\n");
  let offset = 0;
  for (const [i, line] of lines.entries()) {
    for (const match of line.matchAll(global)) {
      const before = line.slice(0, match.index);
      const after = line.slice(match.index + match[0].length);
      const at = offset + match.index;
      const near = text.slice(Math.max(0, at - 40), at);
      // "your CBE Birr account 09… has been debited", "from your Dashen account", "to your CBE Birr
      // wallet": the SMS of the owner's own bank; "to your Dashen account" on another wallet's SMS is
      // still the other side.
      const toYourAccount = /\bto\s+your\s*$/i.test(before) && COUNTERPARTY_AFTER.test(after.slice(0, 30));
      if (/\byour\s*$/i.test(before) && !toYourAccount) return true;
      // "from KEDIR MOHAMMED (Awash Bank)": a bank in brackets after a name is that side's bank.
      if (/\(\s*$/.test(before)) continue;
      if (COUNTERPARTY.test(before) || COUNTERPARTY_BEFORE.test(near)) continue;
      // Only on the name's own line: an "Account" label opening the next line is not about this name.
      if (COUNTERPARTY_AFTER.test(after.slice(0, 30))) continue;
      // OCR may leave a line of noise between a label and its value: two lines up still count.
      const labelAbove = [lines[i - 1], lines[i - 2]].some(
        (above) => above !== undefined && COUNTERPARTY.test(above) && !/\d/.test(above),
      );
      if (!/[A-Za-z]{3}/.test(before) && labelAbove) continue;
      return true;
    }
    offset += line.length + 1;
  }
  return false;
}

/**
 * The bank adapter's own reading of a whole receipt, tried on each form of the text in turn; null when no
 * form is complete enough for it (OCR text rarely keeps every field): the label readers cover what it states.
 */
export function firstReading<F, T>(forms: readonly F[], read: (form: F) => T): T | null {
  for (const form of forms) {
    try {
      return read(form);
    } catch {
      // not a complete receipt in this form
    }
  }
  return null;
}

/** Only the fields the text states: empty strings, nulls and unread numbers are dropped. */
export function compactReceipt(receipt: Partial<Receipt>): Partial<Receipt> {
  const out: Partial<Receipt> = {};
  for (const [key, value] of Object.entries(receipt) as [keyof Receipt, Receipt[keyof Receipt]][]) {
    if (value === undefined || value === null || value === "") continue;
    if (typeof value === "number" && !Number.isFinite(value)) continue;
    Object.assign(out, { [key]: typeof value === "string" ? value.trim() : value });
  }
  return out;
}
