import { type Api, GrammyError } from "grammy";
import type { DueSummary } from "../src/telegram/summaries.js";
import type { BotDependencies } from "./context.js";
import { isLocale, textsFor } from "./i18n.js";
import { summaryText } from "./summary-text.js";

// Every minute's summaries go out within this long of it.
const CHECK_EVERY_MS = 30_000;

export interface DailySummaries {
  /** Sends the summaries due now (at most one check at a time; a check asked for meanwhile runs after it). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Sends managers' daily summaries (/summary HH:MM). Every instance checks; each summary is claimed in
 * PostgreSQL before it is sent, so it goes out once a day however many instances run, and a restart
 * neither loses nor repeats one.
 */
export function startDailySummaries(api: Api, deps: BotDependencies): DailySummaries {
  let running: Promise<void> | null = null;
  let again = false;
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();

  function check(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await sendDue().catch((error: unknown) => deps.logger.warn({ err: error }, "daily summaries failed"));
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  async function sendDue(): Promise<void> {
    const now = new Date();
    for (const summary of await deps.services.members.claimDueSummaries(now)) await send(summary, now);
  }

  async function send(summary: DueSummary, now: Date): Promise<void> {
    try {
      const [entries, staleLimit] = await Promise.all([
        deps.services.history.day(summary.branchId, summary.day, now),
        deps.services.branches.staleLimit(summary.branchId),
      ]);
      const texts = textsFor(isLocale(summary.language) ? summary.language : "en");
      const text = summaryText(texts, summary.branchName, now, entries, staleLimit);
      await api.sendMessage(Number(summary.telegramUserId), text, { parse_mode: "HTML" });
      deps.logger.info({ memberId: summary.memberId, day: summary.day }, "daily summary sent");
    } catch (error) {
      // A manager who blocked the bot will not read it later either; anything else is tried again.
      const blocked = error instanceof GrammyError && error.error_code === 403;
      if (!blocked) await deps.services.members.releaseSummary(summary);
      deps.logger.warn({ err: error, memberId: summary.memberId }, "could not send a daily summary");
    }
  }

  return {
    check,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
