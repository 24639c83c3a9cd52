/** Put once before the header: spreadsheet programs read the file as UTF-8 only with it (Amharic names). */
export const BOM = "\uFEFF";

/** A cell: text, a number already formatted, or nothing (an empty cell). */
export type CsvCell = string | null;

/** One RFC 4180 record with its CRLF. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

/** A field quoted only when it must be: a comma, a double quote or a line break inside. */
export function csvField(cell: CsvCell): string {
  if (cell === null) return "";
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * A dash followed by letters and digits in dash-separated runs: a negative number or a reference such as an
 * Awash share token (`-2KDL95Z0NR-4U61O6`, docs/banks.md §1.2), which must stay as the bank wrote it.
 * With no operator, parenthesis or quote after the dash, a spreadsheet cannot run anything from it.
 */
const PLAIN_DASHED = /^-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/**
 * Text that came from outside (names, labels, references) made inert for spreadsheets (OWASP "CSV
 * injection"): a cell starting with = + @ a tab or a carriage return, or with a dash not followed by a plain
 * reference, is prefixed with a single quote, so Excel and LibreOffice show it instead of evaluating it.
 */
export function inertText(text: string | null): CsvCell {
  if (text === null) return null;
  if (/^[=+@\t\r]/.test(text)) return `'${text}`;
  if (text.startsWith("-") && !PLAIN_DASHED.test(text)) return `'${text}`;
  return text;
}
