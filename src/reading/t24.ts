import { addisIso, monthNumber, to24Hour } from "./parse-utils.js";
import { repairReference } from "./text.js";

// T24 (Temenos) references and dates, shared by the parsers of the banks whose core banking prints them
// (CBE, BOA, CBE Birr, Amhara, Siinqee): prefix + YYDDD + 5 letters/digits (docs/banks.md §1.1).

/**
 * T24 references (prefix + YYDDD + 5 letters/digits) in the text, in order, repaired where the shape is
 * certain: an F read as P or E, the five date digits (OCR O→0, I→1, S→5, B→8…). The last five may be letters or digits, so
 * they are only upper-cased (CBE prints NPPON with a real O). A day of year outside 1–366 is a misread.
 */
export function t24References(text: string, prefixes: readonly string[]): string[] {
  const found: string[] = [];
  const pattern = /(?<![A-Z0-9])([FfTtPE][Tt]) ?([0-9OoQDIli|SsBZzGg]{5}) ?([A-Za-z0-9]{5})(?![A-Za-z0-9])/g;
  for (const match of text.matchAll(pattern)) {
    const [, prefix = "", digits = "", tail = ""] = match;
    // OCR reads a small F as P or E; no T24 prefix starts with either.
    const upper = prefix.toUpperCase().replace(/^[PE]/, "F");
    // A lower-case "ft" glued to a word ("draft…") is prose, not a reference.
    if (!prefixes.includes(upper)) continue;
    if (prefix !== upper && /[A-Za-z]/.test(text[(match.index ?? 0) - 1] ?? "")) continue;
    const repaired = repairReference(`${upper}${digits}${tail}`, `${upper}99999XXXXX`);
    if (repaired && t24Day(repaired) && !found.includes(repaired)) found.push(repaired);
  }
  return found;
}

export function hasT24Reference(text: string, prefixes: readonly string[]): boolean {
  return t24References(text, prefixes).length > 0;
}

/** The booking day a T24 reference encodes (YY + day of year, docs/banks.md §1.1), as a UTC midnight. */
export function t24Day(reference: string): Date | null {
  const match = /^[A-Z]{2}(\d{2})(\d{3})/.exec(reference);
  if (!match) return null;
  const year = 2000 + Number(match[1]);
  const day = Number(match[2]);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day < 1 || day > (leap ? 366 : 365)) return null;
  return new Date(Date.UTC(year, 0, day));
}

export type DayOrder = "dmy" | "mdy";

const TIME = String.raw`(?:[,\s]+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp]\.?[Mm]\.?)?)?`;
const ISO_DATE = /(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?/;
const NUMERIC_DATE = new RegExp(String.raw`(?<!\d)(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})(?!\d)${TIME}`);
const NAMED_FIRST = new RegExp(String.raw`([A-Za-z]{3,9})\.?\s*(\d{1,2}),?\s*(\d{4})${TIME}`);
const DAY_FIRST = new RegExp(
  String.raw`(?<!\d)(\d{1,2})[-\s]([A-Za-z]{3,9})[-\s,]*(\d{4}|\d{2})(?!\d)${TIME}`,
);
const COMPACT_TIME = /(?<!\d)(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?!\d)/;
const COMPACT_DAY = /(?<!\d)(20\d{2})(\d{2})(\d{2})(?!\d)/;

interface DateOptions {
  /** Amhara's raw yyMMddHHmm / yyyyMMdd values. */
  compact?: boolean;
}

/**
 * A receipt date as ISO with +03:00. `order` says how the bank writes numeric dates; when both readings
 * are valid, the one nearer the day the T24 reference encodes wins (docs/banks.md §1.1).
 */
export function readDate(
  raw: string,
  order: DayOrder,
  reference: string | null = null,
  options: DateOptions = {},
): string | null {
  const text = raw.replace(/\s+/g, " ").trim();
  const iso = ISO_DATE.exec(text);
  if (iso) return build(iso[1], iso[2], iso[3], iso.slice(4));
  const numeric = NUMERIC_DATE.exec(text);
  if (numeric) {
    const [first, second] = [Number(numeric[1]), Number(numeric[2])];
    const year = numeric[3];
    const time = numeric.slice(4);
    const dayFirst = build(year, String(second), String(first), time);
    const monthFirst = build(year, String(first), String(second), time);
    const preferred = order === "dmy" ? (dayFirst ?? monthFirst) : (monthFirst ?? dayFirst);
    if (!dayFirst || !monthFirst || dayFirst === monthFirst) return preferred;
    return nearestToReference([dayFirst, monthFirst], reference) ?? preferred;
  }
  const named: [RegExpExecArray | null, boolean][] = [
    [NAMED_FIRST.exec(text), true],
    [DAY_FIRST.exec(text), false],
  ];
  for (const [match, monthFirst] of named) {
    if (!match) continue;
    const monthName = monthFirst ? match[1] : match[2];
    const day = monthFirst ? match[2] : match[1];
    const month = monthName ? monthNumber(monthName) : null;
    if (month) {
      const built = build(match[3], String(month), day, match.slice(4));
      if (built) return built;
    }
  }
  if (options.compact) {
    const stamp = COMPACT_TIME.exec(text);
    if (stamp) {
      const built = build(stamp[1], stamp[2], stamp[3], [stamp[4], stamp[5]]);
      if (built) return built;
    }
    const day = COMPACT_DAY.exec(text);
    if (day) return build(day[1], day[2], day[3], []);
  }
  return reference ? spellingReferenceDay(text, order, reference) : null;
}

/**
 * OCR reads a slash of a small printed date as a digit ("9729/2026" for 9/29/2026). A date one character
 * off is taken only where the repair spells the very day the T24 reference encodes: the reference confirms
 * the repair, it never chooses one.
 */
function spellingReferenceDay(text: string, order: DayOrder, reference: string): string | null {
  const booked = t24Day(reference)?.toISOString().slice(0, 10);
  if (!booked) return null;
  for (let at = 1; at < text.length - 1; at++) {
    if (!/\d/.test(text[at] ?? "")) continue;
    const candidate = `${text.slice(0, at)}/${text.slice(at + 1)}`;
    const repaired = [readDate(candidate, order), readDate(candidate, order === "dmy" ? "mdy" : "dmy")];
    const same = repaired.find((date) => date?.startsWith(booked));
    if (same) return same;
  }
  return null;
}

function build(
  yearText: string | undefined,
  monthText: string | undefined,
  dayText: string | undefined,
  time: readonly (string | undefined)[],
): string | null {
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1) return null;
  const fullYear = year < 100 ? 2000 + year : year;
  if (day > new Date(Date.UTC(fullYear, month, 0)).getUTCDate()) return null;
  const [hourText, minuteText, secondText, meridiemText] = time;
  const meridiem = meridiemText?.replace(/\./g, "");
  const hour = hourText === undefined ? 0 : to24Hour(Number(hourText), meridiem);
  const minute = Number(minuteText ?? 0);
  const second = Number(secondText ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return addisIso({ year: fullYear, month, day, hour, minute, second });
}

function nearestToReference(candidates: readonly string[], reference: string | null): string | null {
  const booked = reference ? t24Day(reference) : null;
  if (!booked) return null;
  const distance = (iso: string) => Math.abs(Date.parse(iso.slice(0, 10)) - booked.getTime()) / 86_400_000;
  const [best] = [...candidates].sort((a, b) => distance(a) - distance(b));
  // Far from both, the reference says nothing about this date: keep the bank's usual order.
  return best !== undefined && distance(best) <= 3 ? best : null;
}
