/**
 * Generic key/value reading of the Siinqee receipt page, whose real layout is unknown (docs/banks.md §2.9).
 */

import { type HtmlPage, htmlText, nextElement, textAfter } from "../../reading/html-page.js";
import { addisIso, monthNumber, to24Hour } from "../../reading/parse-utils.js";

// weak (docs/banks.md §2.9): labels are unknown, so each field takes the usual English receipt labels, in
// order of preference ("transferred amount" before "amount"; totals with fees are never the amount).
const words = (list: string): readonly string[] => list.split("|").map((label) => label.trim());

const LABELS = {
  reference: words(`
    reference | reference number | transaction reference | transaction reference number |
    transaction ref | transaction ref number | ref | ref number | ft reference | ft number | ft ref | ft ref number |
    transaction id | transaction number | txn id | txn reference | receipt number | trx | trx number
  `),
  amount: words(`
    transferred amount | amount transferred | transfer amount | settled amount | credited amount |
    transaction amount | amount
  `),
  date: words(`
    transaction date | transaction date and time | date and time | payment date | transfer date | date |
    date time | transaction time | value date | posting date | booking date
  `),
  payerName: words(`
    payer | payer name | sender | sender name | debtor | debtor name | debitor name |
    debit account holder | debit account name | debit name | debited from | from | from name | debit
  `),
  payerAccount: words(`
    payer account | payer account number | sender account | sender account number | debit account |
    debit account number | debited account | debited account number | from account | from account number |
    source account | source account number | account debited
  `),
  receiverName: words(`
    receiver | receiver name | beneficiary | beneficiary name | recipient | recipient name | creditor |
    creditor name | credit account holder | credit account name | credit name | credited to | to |
    to name | credit
  `),
  receiverAccount: words(`
    receiver account | receiver account number | beneficiary account | beneficiary account number |
    recipient account | recipient account number | credit account | credit account number |
    credited account | credited account number | to account | to account number | destination account |
    account credited
  `),
  status: words("status|transaction status|payment status"),
  description: words(`
    narrative | reason | payment reason | description | transaction description | remark | remarks |
    purpose | narration | note
  `),
  type: words("transaction type|payment type|type"),
} as const;

export type Field = keyof typeof LABELS;
const KNOWN_LABELS = new Set<string>(Object.values(LABELS).flat());

/** "Amount (ETB):", "Ref. No", "Date & Time" → "amount", "ref number", "date and time". */
function normalizeLabel(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/\(.*?\)/g, " ")
    .replace(/&/g, " and ")
    .replace(/\b(no|nr|num)\b\.?|#/g, " number ")
    .replace(/\b(in )?(etb|birr)\b/g, " ")
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Label/value pairs of any common receipt markup: table rows, dl/dt/dd, <strong>Label:</strong> value, lines. */
export function htmlPairs(page: HtmlPage): Map<Field, string[]> {
  const pairs: Array<[string, string]> = [];
  for (const cells of page.rows()) {
    for (let i = 0; i + 1 < cells.length; i += 2) pairs.push([cells[i] ?? "", cells[i + 1] ?? ""]);
  }
  for (const dt of page.elements("dt")) {
    const dd = nextElement(dt);
    if (dd?.name === "dd") pairs.push([htmlText(dt), htmlText(dd)]);
  }
  for (const label of page.elements().filter((element) => INLINE_LABEL.has(element.name))) {
    pairs.push([htmlText(label), textAfter(label, VALUE_END)]);
  }
  const lines = page.lines().map(unglued);
  lines.forEach((line, i) => {
    const colon = /^([^:]{2,40}):\s*(.+)$/.exec(line);
    if (colon) pairs.push([colon[1] ?? "", colon[2] ?? ""]);
    const next = lines[i + 1];
    // Label and value in sibling blocks (<div>Amount</div><div>ETB 100</div>).
    if (next && KNOWN_LABELS.has(normalizeLabel(line)) && !KNOWN_LABELS.has(normalizeLabel(next))) {
      pairs.push([line, next]);
    }
  });

  const byLabel = new Map<string, string[]>();
  for (const [label, value] of pairs) {
    const key = normalizeLabel(label);
    const trimmed = value.replace(/^[:\s]+/, "").trim();
    if (!trimmed || !KNOWN_LABELS.has(key)) continue;
    byLabel.set(key, [...(byLabel.get(key) ?? []), trimmed]);
  }
  const result = new Map<Field, string[]>();
  for (const [field, labels] of Object.entries(LABELS) as Array<[Field, readonly string[]]>) {
    const values = labels.flatMap((label) => byLabel.get(label) ?? []);
    if (values.length) result.set(field, values);
  }
  return result;
}

/** Elements that hold a label with its value written after them, up to the line's end (VALUE_END). */
const INLINE_LABEL = new Set(["strong", "b", "label"]);
const VALUE_END = new Set(["br", "p", "div", "li", "td", ...INLINE_LABEL]);

/** Known labels, longest first, as patterns that allow any spacing between their words. */
const GLUED = [...KNOWN_LABELS]
  .sort((a, b) => b.length - a.length)
  .map((label) => new RegExp(`^(${label.split(" ").join("\\s*")})`, "i"));

/**
 * pdf-parse glues a value to its label ("Payer NameLensa Abdisa", "AmountETB 12,750.75"): a line that
 * opens with a known label ending in a small letter, followed at once by a capital or a digit, is split
 * with a colon.
 */
function unglued(line: string): string {
  for (const pattern of GLUED) {
    const label = pattern.exec(line)?.[1];
    const rest = line.slice(label?.length ?? 0);
    if (label && /[a-z]$/.test(label) && /^[A-Z0-9]/.test(rest)) return `${label}: ${rest}`;
  }
  return line;
}

/**
 * weak (docs/banks.md §2.9): the status wording is unknown; only a plain success word, with no word of
 * failure or delay beside it, counts as completed. Anything else stays visible, lower-cased.
 */
export function readStatusWords(status: string): string {
  const lower = status.toLowerCase();
  const success = /\b(success(ful(ly)?)?|completed?|approved|paid|posted|done)\b/.test(lower);
  const failure = /\b(not|unsuccessful|fail(ed|ure)?|pending|revers(ed|al)|cancell?ed|declined|rejected)\b/;
  return success && !failure.test(lower) ? "completed" : lower;
}

const TIME = /(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*([ap])?\.?\s*m?\.?(?![a-z])/i;

/** Receipt dates in the forms Ethiopian banks print (docs/banks.md §1.6), read as Addis Ababa time. */
export function parseReceiptDate(raw: string): string | null {
  const value = raw.replace(/\(?\b(EAT|GMT\+0?3(:?00)?|UTC\+0?3(:?00)?)\b\)?/gi, " ").trim();
  if (/^\d{4}-\d{2}-\d{2}[T ][\d:.]+\s?(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
    const instant = new Date(value.replace(/^(\S+) /, "$1T").replace(/\s/g, ""));
    if (Number.isNaN(instant.getTime())) return null;
    if (value.toUpperCase().endsWith("Z")) return `${instant.toISOString().slice(0, 19)}Z`;
    const addis = new Date(instant.getTime() + 3 * 3600_000);
    return `${addis.toISOString().slice(0, 19)}+03:00`;
  }
  const time = TIME.exec(value);
  const rest = (time ? value.replace(time[0], " ") : value)
    .replace(/\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?,?/gi, " ")
    .replace(/(?<=\d)T(?=\s|$)/, " ")
    .replace(/\bat\b|,/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
  const date = readDay(rest);
  if (!date) return null;
  const hour = time ? to24Hour(Number(time[1]), time[4] ? `${time[4]}m` : undefined) : 0;
  const minute = time ? Number(time[2]) : 0;
  const second = time?.[3] ? Number(time[3]) : 0;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return addisIso({ ...date, hour, minute, second });
}

function readDay(text: string): { year: number; month: number; day: number } | null {
  let year: number | undefined;
  let month: number | null | undefined;
  let day: number | undefined;
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (m) [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const numeric = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/.exec(text);
  if (numeric) {
    const [a, b] = [Number(numeric[1]), Number(numeric[2])];
    // weak: day-first is the Ethiopian habit (Telebirr, BOA); month-first only when the day cannot be a month.
    [day, month] = b > 12 && a <= 12 ? [b, a] : [a, b];
    year = Number(numeric[3]);
  }
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([a-z]{3,9})\.?[\s-]+(\d{4})$/i.exec(text);
  if (dayFirst)
    [day, month, year] = [Number(dayFirst[1]), monthNumber(dayFirst[2] ?? ""), Number(dayFirst[3])];
  const monthFirst = /^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s+(\d{4})$/i.exec(text);
  if (monthFirst)
    [month, day, year] = [monthNumber(monthFirst[1] ?? ""), Number(monthFirst[2]), Number(monthFirst[3])];
  if (year === undefined || !month || !day || month > 12 || day > 31) return null;
  return { year: year < 100 ? 2000 + year : year, month, day };
}
