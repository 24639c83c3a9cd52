import type { EntityManager } from "@mikro-orm/postgresql";
import { addisDayStart } from "../addis-time.js";
import { type OutcomeKind, outcomeSql } from "./outcome.js";

/** One verification of the day, with what a summary shows of it. */
export interface DayEntry {
  id: number;
  outcome: OutcomeKind;
  bank: string;
  transactionNumber: string;
  amount: number | null;
  currency: string | null;
  transactionDate: string | null;
  sourceLabel: string;
  createdAt: Date;
}

/**
 * A branch's verifications of one Addis Ababa day up to `until`, oldest first: what the daily summary
 * counts and lists. Deleted and sandbox ones are left out, as history shows them to nobody. A branch's day
 * is small (the history index serves it), so the summary is built from the rows themselves.
 */
export async function dayEntries(
  em: EntityManager,
  branchId: number,
  day: string,
  until: Date,
): Promise<DayEntry[]> {
  const rows: {
    id: number;
    outcome: OutcomeKind;
    bank: string;
    transaction_number: string;
    amount: string | number | null;
    currency: string | null;
    transaction_date: string | null;
    source_label: string;
    created_at: string | Date;
  }[] = await em.execute(
    `select v.id, ${outcomeSql("v")} as outcome, v.bank, v.transaction_number, v.amount, v.currency,
            v.transaction_date, v.source_label, v.created_at
     from verifications v
     where v.branch_id = ? and v.deleted_at is null and not v.sandbox
       and v.created_at >= ? and v.created_at < ?
     order by v.created_at, v.id`,
    [branchId, addisDayStart(day).toISOString(), until.toISOString()],
  );
  return rows.map((row) => ({
    id: row.id,
    outcome: row.outcome,
    bank: row.bank,
    transactionNumber: row.transaction_number,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    transactionDate: row.transaction_date,
    sourceLabel: row.source_label,
    createdAt: new Date(row.created_at),
  }));
}
