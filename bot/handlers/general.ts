import { Composer } from "grammy";
import { isManager } from "../../src/auth/roles.js";
import { leaveBranch } from "../../src/telegram/members.js";
import { clearMemberCommands } from "../commands.js";
import type { BotContext, BotDependencies } from "../context.js";
import { banksText, TEXTS } from "../texts.js";

/** /help, /banks and /leave, for every member. */
export function generalCommands(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("help", async (ctx) => {
    const manager = ctx.member && isManager(ctx.member.role);
    const text = [TEXTS.howToVerify, ...(manager ? [TEXTS.managerHelp] : []), TEXTS.commonHelp].join("\n\n");
    await ctx.reply(text, { parse_mode: "HTML" });
  });

  composer.command("banks", (ctx) =>
    ctx.reply(banksText(), { parse_mode: "HTML", link_preview_options: { is_disabled: true } }),
  );

  composer.command("leave", async (ctx) => {
    if (!ctx.member || !ctx.from) return;
    await leaveBranch(deps.orm.em.fork(), ctx.member.telegramUserId);
    await clearMemberCommands(ctx.api, ctx.from.id).catch(() => undefined);
    await ctx.reply(TEXTS.left(ctx.member.branchName), { parse_mode: "HTML" });
    deps.logger.info({ memberId: ctx.member.id }, "member left");
  });

  return composer;
}
