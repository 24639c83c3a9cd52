import type { BankCode } from "../banks/codes.js";
import { ReceiptFormatError } from "../banks/errors.js";
import { assertPdfNotBomb } from "../pdf/guard.js";
import { extractPdfText, UnreadablePdfError } from "../pdf/text.js";
import { isProse, withoutGluedLabelEnd } from "./receipt-lines.js";

/**
 * Label/value reading for receipt text as pdf-parse (or an HTML-to-lines pass) emits it. The same receipt
 * comes out in several shapes depending on how the bank drew it and which extractor ran:
 *   "Transferred Amount20,000.00 ETB"          label glued to its value
 *   "Transferred Amount 20,000.00 ETB"         label and value on one line
 *   "Receiver Name" / "SAMPLE SHOP"            value on the next line
 *   "1500.00" "5.00" / "Paid amount" "VAT"     values of a column above its labels
 *   "Payment Reason" "Payment Channel" / "Rent" "USSD"   labels of a column above its values
 *   "Payer name: A B Payer account no.: 1021"  several labels on one line (readInlineLabel)
 */

/** The text of a receipt PDF; a PDF that cannot be read is an unreadable answer of the bank. */
export async function readPdfText(bank: BankCode, bytes: Uint8Array): Promise<string> {
  try {
    // A bank's answer is untrusted input too (a hijacked or impersonated origin).
    assertPdfNotBomb(bytes);
    return await extractPdfText(bytes);
  } catch (error) {
    if (error instanceof UnreadablePdfError) {
      throw new ReceiptFormatError(bank, `The receipt PDF is unreadable: ${error.message}`);
    }
    throw error;
  }
}

export type LabelKind = "text" | "amount" | "header";

export interface LabelSpec {
  key: string;
  /** The printed label; matching ignores case, spacing around "/" and a trailing colon. */
  label: string | RegExp;
  kind: LabelKind;
  /** What a value on the label's own line must look like (guards short labels like "Tin" against names). */
  value?: RegExp;
  /** The value may wrap onto the following lines (long names). */
  wraps?: boolean;
}

interface LabelLine {
  spec: LabelSpec;
  inline: string;
}

const AMOUNT = /^(?:ETB|Br\.?|Birr)?\s*-?\d[\d,]*(?:\.\d+)?\s*(?:ETB|Br\.?|Birr)?$/i;

/** Trimmed, whitespace-collapsed, non-empty lines; a tab (pdf.js's gap between items) is kept. */
export function textLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) =>
      line
        .replace(/[^\S\t]+/g, " ")
        .replace(/ ?\t[\s]*/g, "\t")
        .trim(),
    )
    .filter(Boolean);
}

/** textLines with pdf.js's item gaps read as plain spaces, for labels that are looked for anywhere on a line. */
export function plainLines(text: string): string[] {
  return textLines(text).map((line) => line.replace(/\t/g, " "));
}

/**
 * Every value found for each spec key, in document order (a label may occur twice, like CBE's two
 * "Account" lines: payer first, receiver second).
 */
export function readLabels(rawLines: readonly string[], specs: readonly LabelSpec[]): Map<string, string[]> {
  const matchers = specs
    .map((spec) => matcher(spec))
    .sort((a, b) => b.start.source.length - a.start.source.length);
  const lines = rawLines.map((line) => line.replace(/\t/g, " "));
  const parsed = rawLines.map(
    (line) => classify(line.replace(/\t/g, " "), matchers) ?? valueThenLabel(line, matchers),
  );
  const found = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    if (!value) return;
    const values = found.get(key) ?? [];
    values.push(value);
    found.set(key, values);
  };

  const above = valuesAboveLabels(parsed, lines);
  parsed.forEach((entry, index) => {
    if (!entry || entry.spec.kind === "header") return;
    const { spec } = entry;
    if (above && !entry.inline) {
      add(spec.key, lines[index - 1] ?? "");
      return;
    }
    if (entry.inline) {
      const tail = spec.wraps ? valuesAfter(parsed, lines, index, "text").join(" ") : "";
      add(spec.key, tail ? `${entry.inline} ${tail}` : entry.inline);
      return;
    }
    add(spec.key, valueOfBareLabel(parsed, lines, index));
  });
  return found;
}

// --- internal helpers ---

/**
 * Text that puts every value on the line above its label (the receipt ends with a label that has nothing
 * beside or below it but prose, and every bare label has an unlabelled line above it). Runs of bare labels are then
 * no column: each label's value is its own line above.
 */
function valuesAboveLabels(parsed: readonly (LabelLine | undefined)[], lines: readonly string[]): boolean {
  const bare = parsed.flatMap((entry, i) =>
    entry && !entry.inline && entry.spec.kind !== "header" ? [i] : [],
  );
  const last = bare.at(-1);
  if (bare.length < 3 || last === undefined || parsed.slice(last + 1).some(Boolean)) return false;
  if (lines.slice(last + 1).some((line) => !isProse(line))) return false;
  return bare.every((i) => i > 0 && parsed[i - 1] === undefined);
}

interface Matcher {
  spec: LabelSpec;
  /** The label at the start of a line. */
  start: RegExp;
  /** An amount followed by the label, for amount labels only. */
  trailing?: RegExp;
}

function matcher(spec: LabelSpec): Matcher {
  const source = labelSource(spec.label);
  const start = new RegExp(`^(?:${source})`, "i");
  if (spec.kind !== "amount") return { spec, start };
  return { spec, start, trailing: new RegExp(`^(.+?)\\s*(?:${source})\\s*:?$`, "i") };
}

function labelSource(label: string | RegExp): string {
  if (label instanceof RegExp) return label.source;
  return label
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s*")
    .replace(/\\s\*\/\\s\*|\//g, "\\s*/\\s*")
    .replace(/\\\./g, "\\.?")
    .replace(/'/g, "'?");
}

function classify(line: string, matchers: readonly Matcher[]): LabelLine | undefined {
  for (const { spec, start, trailing } of matchers) {
    const match = start.exec(line);
    if (match) {
      const inline = withoutGluedLabelEnd(line.slice(match[0].length))
        .replace(/^\s*:\s*|^\s+/, "")
        .trim();
      if (spec.kind === "header" || !inline) return { spec, inline: "" };
      const guard = spec.kind === "amount" ? AMOUNT : spec.value;
      if (!guard || guard.test(inline)) return { spec, inline };
      continue;
    }
    // "1500.00 Paid amount": pdf.js can put a value drawn slightly higher ahead of its label.
    const before = trailing?.exec(line);
    if (before?.[1] && AMOUNT.test(before[1])) return { spec, inline: before[1] };
  }
  return undefined;
}

/** "Mr X Y<TAB>Payer": a value drawn before its label on the same row comes out first. */
function valueThenLabel(line: string, matchers: readonly Matcher[]): LabelLine | undefined {
  const cells = line.split("\t");
  const last = cells.pop();
  if (!last || cells.length === 0) return undefined;
  const label = classify(last, matchers);
  if (!label || label.inline || label.spec.kind === "header") return undefined;
  const inline = cells.join(" ").trim();
  const guard = label.spec.kind === "amount" ? AMOUNT : label.spec.value;
  return !guard || guard.test(inline) ? { spec: label.spec, inline } : undefined;
}

/**
 * A label with nothing beside it. Consecutive bare labels form a run whose values sit after (or before)
 * the run in the same order. A run mixing kinds is first read as one block ("Payer … Transferred Amount"
 * then all values), then per kind ("Paid amount … VAT" under their amounts, "Payment Reason …" above theirs).
 */
function valueOfBareLabel(
  parsed: readonly (LabelLine | undefined)[],
  lines: readonly string[],
  index: number,
) {
  const entry = parsed[index];
  if (!entry) return "";
  const { kind } = entry.spec;
  const fits = (value: string | undefined) =>
    value !== undefined && (kind !== "amount" || AMOUNT.test(value)) ? value : undefined;

  const block = runAround(parsed, index, () => true);
  const blockAfter = valuesAfter(parsed, lines, block.end, "text");
  if (block.size === 1 && blockAfter.length > 0) {
    if (kind === "amount") return fits(blockAfter[0]) ?? "";
    return entry.spec.wraps ? blockAfter.join(" ") : (blockAfter[0] ?? "");
  }
  if (block.size > 1) {
    const blockBefore = valuesBefore(parsed, lines, block.start, "text");
    const mapped =
      (blockAfter.length >= block.size ? fits(blockAfter[block.position]) : undefined) ??
      (blockBefore.length >= block.size
        ? fits(blockBefore[blockBefore.length - block.size + block.position])
        : undefined);
    if (mapped !== undefined) return mapped;
  }

  const run = runAround(parsed, index, (other) => other.spec.kind === kind);
  const after = valuesAfter(parsed, lines, run.end, kind);
  if (after.length >= run.size) return after[run.position] ?? "";
  // A lone text label with nothing after it is empty; the line above belongs to the previous field.
  const before = kind === "amount" || run.size > 1 ? valuesBefore(parsed, lines, run.start, kind) : [];
  if (before.length >= run.size) return before[before.length - run.size + run.position] ?? "";
  return after[run.position] ?? "";
}

function runAround(
  parsed: readonly (LabelLine | undefined)[],
  index: number,
  belongs: (other: LabelLine) => boolean,
): { start: number; end: number; size: number; position: number } {
  const isBare = (i: number) => {
    const other = parsed[i];
    return other !== undefined && !other.inline && other.spec.kind !== "header" && belongs(other);
  };
  let start = index;
  while (start > 0 && isBare(start - 1)) start--;
  let end = index;
  while (end + 1 < parsed.length && isBare(end + 1)) end++;
  return { start, end, size: end - start + 1, position: index - start };
}

function valuesAfter(
  parsed: readonly (LabelLine | undefined)[],
  lines: readonly string[],
  index: number,
  kind: LabelKind,
): string[] {
  return valuesFrom(parsed, lines, index, kind, 1);
}

function valuesBefore(
  parsed: readonly (LabelLine | undefined)[],
  lines: readonly string[],
  index: number,
  kind: LabelKind,
): string[] {
  return valuesFrom(parsed, lines, index, kind, -1).reverse();
}

/** The unlabelled lines next to `index` in one direction, in reading order away from it. */
function valuesFrom(
  parsed: readonly (LabelLine | undefined)[],
  lines: readonly string[],
  index: number,
  kind: LabelKind,
  step: 1 | -1,
): string[] {
  const values: string[] = [];
  for (let i = index + step; i >= 0 && i < lines.length && parsed[i] === undefined; i += step) {
    const line = lines[i] ?? "";
    if (kind === "amount" && !AMOUNT.test(line)) break;
    values.push(line);
  }
  return values;
}

// --- labels anywhere on a line ---

export interface InlineLabelOptions {
  /** How many following lines may hold the value of a label that has none beside it. */
  linesBelow: number;
  /** Bank-specific clean-up of a value before separators are trimmed (e.g. dropping Amharic halves). */
  scrub?: (value: string) => string;
}

/**
 * The value after a label that may stand anywhere on its line, among other labels (two-column layouts,
 * bilingual labels): the rest of its line up to the next label, else one of the next lines that does not
 * start with a label. "" when the label is there without a value; undefined when it is not there.
 */
export function readInlineLabel<K extends string>(
  lines: readonly string[],
  labels: Readonly<Record<K, RegExp>>,
  key: K,
  options: InlineLabelOptions,
): string | undefined {
  const patterns: readonly RegExp[] = Object.values(labels);
  const clean = (text: string) => valueBeforeLabel(text, patterns, options.scrub);
  let found: string | undefined;
  for (const [i, line] of lines.entries()) {
    const match = labels[key].exec(line);
    if (!match) continue;
    const inline = clean(line.slice(match.index + match[0].length));
    if (inline) return inline;
    found = "";
    for (const next of lines.slice(i + 1, i + 1 + options.linesBelow)) {
      if (patterns.some((pattern) => pattern.exec(next)?.index === 0)) break;
      const below = clean(next);
      if (below) return below;
    }
  }
  return found;
}

/** Text before the first label, without separators. */
function valueBeforeLabel(
  text: string,
  patterns: readonly RegExp[],
  scrub: (value: string) => string = (value) => value,
): string {
  let end = text.length;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match && match.index < end) end = match.index;
  }
  // The trailing run is matched only from where it starts: tried from every separator of a long run
  // (":::…" in OCR text), an unanchored `[\s:/|]+$` is quadratic in the run's length.
  return scrub(text.slice(0, end))
    .replace(/\s+/g, " ")
    .replace(/^[\s:/|]+|(?<![\s:/|])[\s:/|]+$/g, "");
}
