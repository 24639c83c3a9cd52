import type { EntityManager } from "@mikro-orm/postgresql";
import { addisDay, addisMinuteOfDay } from "../addis-time.js";
import { TelegramMemberSchema } from "../db/entities/index.js";

// A manager's daily summary: the minute of the Addis Ababa day it is due, and the last day
// claimed. Claiming is one conditional UPDATE, so with any number of service instances (and after a
// restart) each day's summary is sent once.

/** A summary whose time has come today, claimed by this instance. */
export interface DueSummary {
  memberId: number;
  telegramUserId: string;
  branchId: number;
  branchName: string;
  language: string | null;
  /** The Addis Ababa day it summarises, "2026-11-25". */
  day: string;
}

/** Sets (minutes after midnight) or clears (null) a member's summary time; false when the user is no member. */
export async function setSummaryTime(
  em: EntityManager,
  telegramUserId: string,
  minute: number | null,
): Promise<boolean> {
  return (await em.nativeUpdate(TelegramMemberSchema, { telegramUserId }, { summaryMinute: minute })) > 0;
}

/**
 * Claims every manager's summary that is due (its time has passed today and today's was not claimed), for
 * this instance to send. A row another instance claims first is skipped: PostgreSQL re-checks the
 * condition after waiting on its lock.
 */
export async function claimDueSummaries(em: EntityManager, now: Date): Promise<DueSummary[]> {
  const day = addisDay(now);
  const rows: {
    id: number;
    telegram_user_id: string;
    branch_id: number;
    branch_name: string;
    language: string | null;
  }[] = await em.execute(
    `update telegram_members set summary_sent_on = ?
     where summary_minute is not null and summary_minute <= ?
       and summary_sent_on is distinct from ? and role in ('manager', 'admin')
     returning id, telegram_user_id, branch_id, language,
       (select name from branches where branches.id = branch_id) as branch_name`,
    [day, addisMinuteOfDay(now), day],
  );
  return rows.map((row) => ({
    memberId: row.id,
    telegramUserId: String(row.telegram_user_id),
    branchId: row.branch_id,
    branchName: row.branch_name,
    language: row.language,
    day,
  }));
}

/** Gives a claimed summary back (it could not be sent), so the next check tries again. */
export async function releaseSummary(em: EntityManager, summary: DueSummary): Promise<void> {
  await em.nativeUpdate(
    TelegramMemberSchema,
    { id: summary.memberId, summarySentOn: summary.day },
    { summarySentOn: null },
  );
}
