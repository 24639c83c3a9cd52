import type { EntityManager } from "@mikro-orm/postgresql";
import type { Orm } from "../db/orm.js";
import { quotaMonth } from "../engine/quota.js";
import type { Logger } from "../logger.js";

// `verifications` is partitioned by Addis Ababa's months (migrations/Migration20261129044157.ts). Each
// instance keeps the next months' partitions in place and, with HISTORY_RETENTION_MONTHS, drops whole months
// that have passed out of it. Every step is idempotent, so instances may overlap.

/** Months after the current one that always have their partition: a failing check has months to recover. */
const MONTHS_AHEAD = 3;
const CHECK_EVERY_MS = 60 * 60 * 1000;
/** Adding or dropping a month waits at most this long for a table lock, then tries again at the next check. */
const LOCK_TIMEOUT = "500ms";
/** Rows deleted per statement, so that no one statement holds a month of claims. */
const DELETE_BATCH = 10_000;

export interface MonthsDone {
  /** Partitions dropped, e.g. "verifications_2025_01". */
  dropped: string[];
  /** Claims on receipts (confirmed_receipts) and default-partition rows deleted with them. */
  deleted: number;
}

// Every month from the first instant's to the second's, and `?` months more (Addis Ababa's months).
const ADD_MONTHS_SQL = `select verifications_add_month(month::date) from generate_series(
   date_trunc('month', ?::timestamptz at time zone interval '+03:00'),
   date_trunc('month', ?::timestamptz at time zone interval '+03:00') + make_interval(months => ?),
   interval '1 month') as month`;

/** Adds the partitions of the current month and the next MONTHS_AHEAD, those that are missing. */
export async function addComingMonths(em: EntityManager, now: Date): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
    await tx.execute(ADD_MONTHS_SQL, [now.toISOString(), now.toISOString(), MONTHS_AHEAD]);
  });
}

/** Adds the partitions of every month from `from`'s to `to`'s (loading history, e.g. the bench). */
export async function addMonthsBetween(em: EntityManager, from: Date, to: Date): Promise<void> {
  await em.execute(ADD_MONTHS_SQL, [from.toISOString(), to.toISOString(), 0]);
}

/**
 * Forgets the months that ended `months` or more months ago: their claims on receipts first (a receipt that
 * old may then be confirmed again, which only a record about to go could have refused), then their rows in
 * the default partition, then their partitions.
 */
export async function dropMonthsBefore(em: EntityManager, now: Date, months: number): Promise<MonthsDone> {
  // The first day of the Addis Ababa month `months` before this one.
  const [year = 0, month = 1] = quotaMonth(now).split("-").map(Number);
  const cutoff = new Date(Date.UTC(year, month - 1 - months, 1)).toISOString().slice(0, 10);
  const before = `${cutoff} 00:00:00+03`;
  let deleted = 0;
  for (const table of ["confirmed_receipts", "verifications_default"]) {
    for (;;) {
      const rows = await em.execute<{ n: number }[]>(
        `with gone as (delete from ${table} where ctid in (
           select ctid from ${table} where created_at < ?::timestamptz limit ${DELETE_BATCH}) returning 1)
         select count(*)::int as n from gone`,
        [before],
      );
      const n = rows[0]?.n ?? 0;
      deleted += n;
      if (n < DELETE_BATCH) break;
    }
  }
  const partitions = await em.execute<{ name: string }[]>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'verifications'::regclass and c.relname ~ '^verifications_[0-9]{4}_[0-9]{2}$'
       and to_date(substr(c.relname, 15), 'YYYY_MM') + interval '1 month' <= ?::date
     order by c.relname`,
    [cutoff],
  );
  const dropped: string[] = [];
  for (const { name } of partitions) {
    // Dropping a partition locks the whole table for a moment: it waits LOCK_TIMEOUT at most.
    await em.transactional(async (tx) => {
      await tx.execute(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
      await tx.execute(`drop table if exists "${name}"`);
    });
    dropped.push(name);
  }
  return { dropped, deleted };
}

export interface HistoryMonths {
  /** Runs one check now (the next one is still due on the hour). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** Checks the partitions at start and every hour, in the background: a failure is logged and retried. */
export function startHistoryMonths(
  orm: Orm,
  retentionMonths: number | null,
  logger: Logger,
  now: () => Date = () => new Date(),
): HistoryMonths {
  let running: Promise<void> = Promise.resolve();
  const check = () => {
    running = running.then(async () => {
      const em = orm.em.fork();
      try {
        await addComingMonths(em, now());
        if (retentionMonths === null) return;
        const done = await dropMonthsBefore(em, now(), retentionMonths);
        if (done.dropped.length > 0 || done.deleted > 0) logger.info(done, "history past retention dropped");
      } catch (error) {
        logger.warn({ err: error }, "history months: will try again in an hour");
      }
    });
    return running;
  };
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();
  void check();
  return {
    check,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
