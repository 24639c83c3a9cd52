import { Composer } from "grammy";
import { type BotContext, type BotDependencies, isMember } from "../context.js";
import { textsOf } from "../i18n.js";
import { durationText, parseStaleLimit } from "../staleness.js";
import { allowedManager } from "./manager.js";

/** /settings [stale 6h|2d|90m|off]: the branch's limit on how old a confirmed payment may be (managers). */
export function settingsCommands(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.filter(isMember).command("settings", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const texts = textsOf(ctx);
    const { t } = texts;
    const [setting, value, ...rest] = ctx.match.trim().split(/\s+/).filter(Boolean);
    const branchId = ctx.member.branchId;
    if (setting === undefined) {
      const limit = await deps.services.branches.staleLimit(branchId);
      await ctx.reply(
        limit === null
          ? t("settings-stale-off-now")
          : t("settings-stale-now", { limit: durationText(texts, limit) }),
      );
      return;
    }
    const minutes =
      setting.toLowerCase() === "stale" && rest.length === 0 ? parseStaleLimit(value) : undefined;
    if (minutes === undefined) {
      await ctx.reply(t("settings-usage"));
      return;
    }
    await deps.services.branches.setStaleLimit(branchId, minutes);
    await ctx.reply(
      minutes === null
        ? t("settings-stale-off")
        : t("settings-stale-set", { limit: durationText(texts, minutes) }),
    );
  });
  return composer;
}
