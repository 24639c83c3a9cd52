import { z } from "zod";
import { EXPORT_COLUMNS } from "../../src/history/export.js";
import type { OpenApiExample } from "./examples.js";

// GET /verifications/export in the OpenAPI document: Birrcheck's addition (docs/api.md §4.14), marked as
// such with `x-birrcheck-extension` and in its description.

/** The specification extension that marks operations the contract does not have. */
export const EXTENSION_MARK = { "x-birrcheck-extension": true } as const;

export const EXPORT_DESCRIPTION = `An extension of the contract (not in API v1 as specified): the branch's verifications as one CSV
file, for a spreadsheet. Manager and admin keys only; a cashier key gets 403. The filters are those of GET
/verifications; limit has no upper bound and, when absent, every record is exported, newest first. Deleted
records are left out. The file is streamed as it is read from the database (chunked, no Content-Length): if
the database fails part-way, the connection is cut before the end rather than a shortened file delivered.`;

export const EXPORT_BODY_DESCRIPTION = `UTF-8 CSV (RFC 4180): a byte-order mark (U+FEFF) once at the start so spreadsheet programs
keep Amharic names, a header line, then one line per verification, each ending in CRLF. Fields with a comma, a
double quote or a line break are quoted (quotes doubled). Columns: ${EXPORT_COLUMNS.join(", ")}.
created_at: ISO 8601 in Addis Ababa time with its offset, to the second (2026-11-25T14:02:07+03:00). status:
the outcome, one of confirmed, not_found, duplicate, wrong_account, not_completed, document_mismatch. amount:
a plain number with two decimals (1500.00), no separators. duplicate_of: for a duplicate, the id of the
branch's confirmed verification of that receipt (it may have been deleted since). A missing value is an empty
cell. Text that a spreadsheet would evaluate (starting with =, +, @, a tab or a carriage return, or with - not
followed by a plain reference) is prefixed with a single quote.`;

export const exportBodySchema = z.string().meta({ description: "The CSV file." });

export const exportHeaders = z.object({
  "Content-Disposition": z.string().meta({
    description: 'attachment; filename="verifications-<branch id>-<date in Addis Ababa>.csv"',
    example: 'attachment; filename="verifications-12-2026-11-25.csv"',
  }),
});

const line = (cells: string[]) => `${cells.join(",")}\r\n`;

export const exportExamples: Record<string, OpenApiExample> = {
  csv: {
    summary: "A confirmed payment and a duplicate of it",
    value:
      `\uFEFF${line([...EXPORT_COLUMNS])}` +
      line([
        "4522",
        "2026-11-25T14:05:41+03:00",
        "telebirr",
        "DFH51OFIED",
        "duplicate",
        "1500.00",
        "ETB",
        "አበበ ከበደ",
        '"Sara Tadesse, Bole"',
        "2519****4025",
        "telegram",
        "Counter 2",
        "4519",
      ]) +
      line([
        "4519",
        "2026-11-25T14:02:07+03:00",
        "telebirr",
        "DFH51OFIED",
        "confirmed",
        "1500.00",
        "ETB",
        "አበበ ከበደ",
        '"Sara Tadesse, Bole"',
        "2519****4025",
        "api",
        "Main till",
        "",
      ]),
  },
};
