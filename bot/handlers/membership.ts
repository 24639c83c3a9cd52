import { Composer, type MiddlewareFn } from "grammy";
import { RateLimiter } from "../../src/rate-limit.js";
import { setMemberCommands } from "../commands.js";
import type { BotContext, BotDependencies } from "../context.js";
import { localeOf, textsOf } from "../i18n.js";
import { INVITE_ATTEMPTS } from "../rate-limit.js";

/** Who is writing: every update is matched to its member (or to nobody) before anything else. */
export function loadMember(deps: BotDependencies): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    // Only private chats: a receipt or a manager's list must not be shown in a group.
    if (ctx.chat && ctx.chat.type !== "private") return;
    ctx.member = ctx.from ? await deps.services.members.find(String(ctx.from.id)) : null;
    await next();
  };
}

/** Joining with /start <code>; anyone who is not a member stops here. */
export function membership(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  const inviteAttempts = new RateLimiter(INVITE_ATTEMPTS.limit, INVITE_ATTEMPTS.windowMs);
  composer.command("start", async (ctx) => {
    const { t } = textsOf(ctx);
    const code = ctx.match.trim();
    if (!code) {
      await ctx.reply(ctx.member ? t("welcome-back", { branch: ctx.member.branchName }) : t("outsider"), {
        parse_mode: "HTML",
      });
      return;
    }
    const from = ctx.from;
    if (!from) return;
    const attempt = inviteAttempts.hit(String(from.id));
    if (!attempt.allowed) {
      await ctx.reply(t("too-many-attempts", { seconds: attempt.retryAfterS }));
      return;
    }
    const name = [from.first_name, from.last_name].filter(Boolean).join(" ") || `user ${from.id}`;
    const outcome = await deps.services.members.joinByInvite(code, { telegramUserId: String(from.id), name });
    switch (outcome.kind) {
      case "joined": {
        const { member } = outcome;
        await setMemberCommands(ctx.api, from.id, member.role, localeOf(ctx)).catch((error: unknown) =>
          deps.logger.warn({ err: error }, "could not set the member's command menu"),
        );
        await ctx.reply(
          t("joined", { branch: member.branchName, business: member.businessName, role: member.role }),
          {
            parse_mode: "HTML",
          },
        );
        deps.logger.info(
          { memberId: member.id, branchId: member.branchId, role: member.role },
          "member joined",
        );
        return;
      }
      case "already_member":
        await ctx.reply(t("already-member", { branch: outcome.member.branchName }), { parse_mode: "HTML" });
        return;
      case "unknown_code":
        await ctx.reply(t("invite-unknown"));
        return;
      case "used_code":
        await ctx.reply(t("invite-used"));
        return;
      case "expired_code":
        await ctx.reply(t("invite-expired"));
        return;
    }
  });

  // Anyone else learns how to join, and nothing else happens.
  composer.use(async (ctx, next) => {
    if (ctx.member) return next();
    const text = textsOf(ctx).t("outsider");
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text, show_alert: true });
    else if (ctx.message) await ctx.reply(text);
  });
  return composer;
}
