import { Composer } from "grammy";
import { RateLimiter } from "../../src/rate-limit.js";
import { findMember, joinByInvite } from "../../src/telegram/members.js";
import { setMemberCommands } from "../commands.js";
import type { BotContext, BotDependencies } from "../context.js";
import { INVITE_ATTEMPTS } from "../rate-limit.js";
import { TEXTS } from "../texts.js";

/** Who is writing: every update is matched to its member (or to nobody) before anything else. */
export function membership(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  // Only private chats: a receipt or a manager's list must not be shown in a group.
  composer.use(async (ctx, next) => {
    if (ctx.chat && ctx.chat.type !== "private") return;
    ctx.member = ctx.from ? await findMember(deps.orm.em.fork(), String(ctx.from.id)) : null;
    await next();
  });

  const inviteAttempts = new RateLimiter(INVITE_ATTEMPTS.limit, INVITE_ATTEMPTS.windowMs);
  composer.command("start", async (ctx) => {
    const code = ctx.match.trim();
    if (!code) {
      await ctx.reply(ctx.member ? TEXTS.welcomeBack(ctx.member.branchName) : TEXTS.outsider, {
        parse_mode: "HTML",
      });
      return;
    }
    const from = ctx.from;
    if (!from) return;
    const attempt = inviteAttempts.hit(String(from.id));
    if (!attempt.allowed) {
      await ctx.reply(TEXTS.tooManyAttempts(attempt.retryAfterS));
      return;
    }
    const name = [from.first_name, from.last_name].filter(Boolean).join(" ") || `user ${from.id}`;
    const outcome = await joinByInvite(deps.orm.em.fork(), code, { telegramUserId: String(from.id), name });
    switch (outcome.kind) {
      case "joined": {
        const { member } = outcome;
        await setMemberCommands(ctx.api, from.id, member.role).catch((error: unknown) =>
          deps.logger.warn({ err: error }, "could not set the member's command menu"),
        );
        await ctx.reply(TEXTS.joined(member.branchName, member.businessName, member.role), {
          parse_mode: "HTML",
        });
        deps.logger.info(
          { memberId: member.id, branchId: member.branchId, role: member.role },
          "member joined",
        );
        return;
      }
      case "already_member":
        await ctx.reply(TEXTS.alreadyMember(outcome.member.branchName), { parse_mode: "HTML" });
        return;
      case "unknown_code":
        await ctx.reply(TEXTS.inviteUnknown);
        return;
      case "used_code":
        await ctx.reply(TEXTS.inviteUsed);
        return;
      case "expired_code":
        await ctx.reply(TEXTS.inviteExpired);
        return;
    }
  });

  // Anyone else learns how to join, and nothing else happens.
  composer.use(async (ctx, next) => {
    if (ctx.member) return next();
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: TEXTS.outsider, show_alert: true });
    else if (ctx.message) await ctx.reply(TEXTS.outsider);
  });
  return composer;
}
