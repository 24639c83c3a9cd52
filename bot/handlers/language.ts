import { Composer, InlineKeyboard } from "grammy";
import { setMemberCommands } from "../commands.js";
import { type BotContext, type BotDependencies, isMember } from "../context.js";
import { isLocale, textsOf, useLocale } from "../i18n.js";

/** /language: English or Amharic, remembered on the membership (so every instance and restart knows it). */
export function languageCommand(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const members = composer.filter(isMember);

  members.command("language", async (ctx) => {
    const { t } = textsOf(ctx);
    const keyboard = new InlineKeyboard()
      .text(t("language-english"), "lang:en")
      .text(t("language-amharic"), "lang:am");
    await ctx.reply(t("language-question"), { reply_markup: keyboard });
  });

  members.callbackQuery(/^lang:([a-z]{2})$/, async (ctx) => {
    const locale = ctx.match[1];
    if (!isLocale(locale)) {
      await ctx.answerCallbackQuery();
      return;
    }
    await deps.services.members.setLanguage(ctx.member.telegramUserId, locale);
    useLocale(ctx, locale);
    await ctx.answerCallbackQuery();
    // The menu first: by the time the confirmation says so, the commands speak the new language too.
    await setMemberCommands(ctx.api, ctx.from.id, ctx.member.role, locale, true).catch((error: unknown) =>
      deps.logger.warn({ err: error }, "could not set the member's command menu"),
    );
    await ctx.editMessageText(textsOf(ctx).t("language-chosen")).catch(() => undefined);
  });

  return composer;
}
