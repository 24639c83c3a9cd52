import { Composer } from "grammy";
import { type BotContext, type BotDependencies, isMember } from "../context.js";
import { textsOf } from "../i18n.js";
import { allowedManager } from "./manager.js";

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** /summary HH:MM|off (managers): a summary of the branch's day, every day at that Addis Ababa time. */
export function summaryCommand(deps: BotDependencies, summariesDue: () => void): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.filter(isMember).command("summary", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const { t } = textsOf(ctx);
    const choice = ctx.match.trim().toLowerCase();
    if (choice === "") {
      const minute = ctx.member.summaryMinute;
      await ctx.reply(minute === null ? t("summary-now-off") : t("summary-now-on", { time: clock(minute) }));
      return;
    }
    const time = TIME.exec(choice);
    if (choice !== "off" && !time) {
      await ctx.reply(t("summary-usage"));
      return;
    }
    const minute = time ? Number(time[1]) * 60 + Number(time[2]) : null;
    await deps.services.members.setSummaryTime(ctx.member.telegramUserId, minute);
    await ctx.reply(minute === null ? t("summary-off") : t("summary-set", { time: clock(minute) }));
    // A time already past today brings today's summary at once, not after the next periodic check.
    summariesDue();
  });
  return composer;
}

/** "08:05" */
function clock(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}
