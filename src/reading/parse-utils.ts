/** Small parsers shared by the bank adapters (amounts, dates, masked accounts). */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** "20,000.00 ETB", "ETB 1,107.59", "1100.00 Birr", "800" → number; null when no amount is present. */
export function parseAmount(text: string): number | null {
  const match = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/.exec(text.replace(/\s+/g, " "));
  if (!match) return null;
  const value = Number(match[0].replaceAll(",", ""));
  return Number.isFinite(value) ? value : null;
}

/** Month name or abbreviation ("Jun", "June") → 1–12; null when unknown. */
export function monthNumber(name: string): number | null {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index === -1 ? null : index + 1;
}

/** Converts a 12-hour clock hour with its AM/PM marker to 0–23. */
export function to24Hour(hour: number, meridiem: string | undefined): number {
  if (!meridiem) return hour;
  const pm = meridiem.toLowerCase() === "pm";
  if (hour === 12) return pm ? 12 : 0;
  return pm ? hour + 12 : hour;
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** ISO 8601 in Addis Ababa time (UTC+3, no daylight saving), as every bank prints local time. */
export function addisIso(parts: DateParts): string {
  const { year, month, day, hour = 0, minute = 0, second = 0 } = parts;
  const full = year < 100 ? 2000 + year : year;
  return `${pad(full, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}+03:00`;
}

/** Visible digits of a possibly masked account ("1****1685" → {head:"1", tail:"1685"}). */
export function visibleDigits(account: string): { head: string; tail: string; masked: boolean } {
  const compact = account.replace(/[\s-]/g, "");
  const masked = /[*xX•]/.test(compact);
  if (!masked) return { head: compact, tail: compact, masked };
  const [head = "", ...rest] = compact.split(/[*xX•]+/);
  return { head: head.replace(/\D/g, ""), tail: (rest.at(-1) ?? "").replace(/\D/g, ""), masked };
}

/** The first non-empty value among keys: receipts name one field differently by transaction type. */
export function pickFirst(values: ReadonlyMap<string, string>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = values.get(key);
    if (value) return value;
  }
  return undefined;
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A query parameter by its name in any case (?TRX=, ?trxno=): phones autocorrect and people retype links. */
export function queryValue(url: URL, name: string): string | null {
  const lower = name.toLowerCase();
  return [...url.searchParams].find(([key]) => key.toLowerCase() === lower)?.[1] ?? null;
}

/** A bank's answer as text, without the byte-order mark some servers put first (JSON.parse refuses it). */
export function answerText(body: Buffer): string {
  return body.toString("utf8").replace(/^\uFEFF/, "");
}

/** A PDF document: readers accept the %PDF- header anywhere in the first 1024 bytes. */
export function isPdf(body: Buffer): boolean {
  return body.subarray(0, 1024).includes("%PDF-");
}
