import type { EntityManager } from "@mikro-orm/postgresql";
import { eachRow } from "../db/each-row.js";
import { BOM, type CsvCell, csvLine, inertText } from "./csv.js";
import { outcomeSql } from "./outcome.js";
import { type Period, periodStart } from "./verifications.js";

/** The export's columns, in order (docs/api.md §4.14): the header line. */
export const EXPORT_COLUMNS = [
  "id",
  "created_at",
  "bank",
  "transaction_number",
  "status",
  "amount",
  "currency",
  "payer_name",
  "receiver_name",
  "receiver_account",
  "source_type",
  "source_label",
  "duplicate_of",
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** GET /verifications's filters; `limit` absent means every row. */
export interface ExportFilters {
  period?: Period | undefined;
  success?: boolean | undefined;
  limit?: number | undefined;
  /** The sandbox's records instead of the live ones (a sandbox key's export). */
  sandbox?: boolean | undefined;
}

export interface ExportOptions {
  /** Rows per query; small in tests so that several batches meet. */
  batchSize?: number;
  /** A chunk is handed on once it holds this many characters. */
  chunkChars?: number;
  /** The moment `period` counts back from. */
  now?: Date;
}

/** Rows per query: the round trips cost little, and a batch's lines are ~1 MB at most. */
export const EXPORT_BATCH_SIZE = 2_000;

/**
 * Chunks of ~16 K characters (~50 KB of UTF-8 at most with Ethiopic names), not one per batch: a string over
 * 128 KB goes to V8's large-object space, which only a full collection frees, and 2,000 lines with Amharic
 * names make a ~600 KB string; such chunks halve a million-row export's heap growth (docs/performance.md).
 */
export const EXPORT_CHUNK_CHARS = 16_384;

/** One row as the export query returns it: every column already text (or null), plus the cursor. */
type ExportRow = { [C in ExportColumn]: string | number | null } & {
  /** created_at as PostgreSQL writes it, to the microsecond: the next batch starts strictly after it. */
  cursor_at: string;
  id: number;
};

/** The text columns that came from a person or a bank, made inert for spreadsheets (src/history/csv.ts). */
const OUTSIDE_TEXT = new Set<ExportColumn>([
  "transaction_number",
  "currency",
  "payer_name",
  "receiver_name",
  "receiver_account",
  "source_type",
  "source_label",
]);

/**
 * The branch's verifications as CSV text, newest first like GET /verifications, in chunks of about
 * `chunkChars` characters: the byte-order mark and the header start the first, which comes once the first
 * batch has been read (a caller that awaits it has seen the database answer). Deleted ones are left out.
 *
 * Rows are read by keyset pagination over the history indexes ((created_at, id) below the last row's), each
 * batch a plain query on a fresh fork with no entity, and no connection is held between batches: what is held
 * is one batch and one chunk however many rows there are, and a slow reader (backpressure) holds no database
 * resources. Rows written during the export are newer than its first batch and do not appear.
 */
export async function* exportVerifications(
  em: EntityManager,
  branchId: number,
  filters: ExportFilters,
  options: ExportOptions = {},
): AsyncGenerator<string, void, undefined> {
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const chunkChars = options.chunkChars ?? EXPORT_CHUNK_CHARS;
  const since = filters.period ? periodStart(filters.period, options.now ?? new Date()).toISOString() : null;
  let left = filters.limit ?? Number.POSITIVE_INFINITY;
  let after: { at: string; id: number } | null = null;
  let text = BOM + csvLine(EXPORT_COLUMNS);
  while (left > 0) {
    const size = Math.min(batchSize, left);
    const batch = await readBatch(em.fork(), branchId, filters, since, after, size);
    for (const line of batch.lines) {
      text += line;
      if (text.length >= chunkChars) {
        yield text;
        text = "";
      }
    }
    if (!batch.last || batch.lines.length < size) break;
    left -= batch.lines.length;
    after = batch.last;
  }
  if (text) yield text;
}

function exportLine(row: ExportRow): string {
  return csvLine(
    EXPORT_COLUMNS.map((column): CsvCell => {
      const value = row[column];
      if (value === null) return null;
      return OUTSIDE_TEXT.has(column) ? inertText(String(value)) : String(value);
    }),
  );
}

async function readBatch(
  em: EntityManager,
  branchId: number,
  { success, sandbox }: ExportFilters,
  since: string | null,
  after: { at: string; id: number } | null,
  size: number,
): Promise<{ lines: string[]; last: { at: string; id: number } | null }> {
  const where = ["v.branch_id = ?", "v.deleted_at is null", "v.sandbox = ?"];
  const params: unknown[] = [branchId, sandbox ?? false];
  if (success !== undefined) {
    where.push("v.success = ?");
    params.push(success);
  }
  if (since !== null) {
    where.push("v.created_at >= ?::timestamptz");
    params.push(since);
  }
  if (after) {
    where.push("(v.created_at, v.id) < (?::timestamptz, ?)");
    params.push(after.at, after.id);
  }
  // Addis Ababa is UTC+3 all year (no daylight saving), so a fixed offset is its local time. An interval
  // after AT TIME ZONE counts east of UTC (a '+03:00' string would be POSIX, i.e. west). A duplicate's
  // original is the branch's one confirmation of that receipt (its row in confirmed_receipts): a
  // subquery run for duplicate rows only, which looks it up by the four columns of that table's primary key
  // whatever the statistics say. bank_answer and the other wide columns are not read.
  // Each row becomes its CSV line as it arrives (src/db/each-row.ts): no batch of row objects is held.
  const lines: string[] = [];
  let last: { at: string; id: number } | null = null;
  await eachRow(
    em,
    `select v.id, v.created_at::text as cursor_at,
       to_char(v.created_at at time zone interval '+03:00', 'YYYY-MM-DD"T"HH24:MI:SS"+03:00"') as created_at,
       v.bank, v.transaction_number, ${outcomeSql("v")} as status, round(v.amount, 2)::text as amount,
       v.currency, v.payer_name, v.receiver_name, v.receiver_account, v.source_type, v.source_label,
       case when (${outcomeSql("v")}) = 'duplicate' then (
         select original.verification_id from confirmed_receipts original
         where original.branch_id = v.branch_id and original.bank = v.bank
           and original.transaction_number = v.transaction_number and original.sandbox = v.sandbox
       ) end as duplicate_of
     from verifications v
     where ${where.join(" and ")}
     order by v.created_at desc, v.id desc
     limit ?`,
    [...params, size],
    (row) => {
      const exported = row as ExportRow;
      lines.push(exportLine(exported));
      last = { at: exported.cursor_at, id: exported.id };
    },
  );
  return { lines, last };
}
