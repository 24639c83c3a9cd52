import { Composer } from "grammy";
import { isManager } from "../../src/auth/roles.js";
import { BANK_CATALOGUE } from "../../src/banks/catalogue.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { clearMemberCommands } from "../commands.js";
import type { BotContext, BotDependencies } from "../context.js";
import { escapeHtml } from "../format.js";
import { type Texts, textsOf } from "../i18n.js";

/** /help, /banks and /leave, for every member. */
export function generalCommands(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("help", async (ctx) => {
    const { t } = textsOf(ctx);
    const manager = ctx.member && isManager(ctx.member.role);
    const text = [t("how-to-verify"), ...(manager ? [t("manager-help")] : []), t("common-help")].join("\n\n");
    await ctx.reply(text, { parse_mode: "HTML" });
  });

  composer.command("banks", (ctx) =>
    ctx.reply(banksText(textsOf(ctx)), { parse_mode: "HTML", link_preview_options: { is_disabled: true } }),
  );

  composer.command("leave", async (ctx) => {
    if (!ctx.member || !ctx.from) return;
    await deps.services.members.leave(ctx.member.telegramUserId);
    await clearMemberCommands(ctx.api, ctx.from.id).catch(() => undefined);
    await ctx.reply(textsOf(ctx).t("left", { branch: ctx.member.branchName }), { parse_mode: "HTML" });
    deps.logger.info({ memberId: ctx.member.id }, "member left");
  });

  return composer;
}

/** The banks the bot checks, with what to send for each (bank names are proper names, as the API gives them). */
export function banksText(texts: Texts): string {
  const lines = BANK_CODES.map(
    (code) => `<b>${escapeHtml(BANK_CATALOGUE[code].name)}</b>: ${texts.t(`bank-about-${code}`)}`,
  );
  return lines.join("\n\n");
}
