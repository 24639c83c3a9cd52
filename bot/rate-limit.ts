import type { MiddlewareFn } from "grammy";
import { RateLimiter } from "../src/rate-limit.js";
import type { BotContext } from "./context.js";
import { textsOf } from "./i18n.js";

/**
 * At most `perMinute` messages and button presses per Telegram user. The first one over the limit gets a
 * reply saying how long to wait; the rest of the window is ignored, so a flood costs one message.
 */
export function rateLimitPerUser(perMinute: number): MiddlewareFn<BotContext> {
  const limiter = new RateLimiter(perMinute, 60_000);
  return async (ctx, next) => {
    if (!ctx.from) return next();
    const decision = limiter.hit(String(ctx.from.id));
    if (decision.allowed) return next();
    // A group is not told: the refusal would interrupt everyone's conversation there.
    if (!decision.firstRefused || (ctx.chat && ctx.chat.type !== "private")) return;
    // Before the language lookup (a flood costs no query): the Telegram app's language.
    const text = textsOf(ctx).t("too-many-attempts", { seconds: decision.retryAfterS });
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text });
    else await ctx.reply(text);
  };
}

/** Invite codes are 144 random bits, so guessing is hopeless; this also keeps anyone from trying at speed. */
export const INVITE_ATTEMPTS = { limit: 5, windowMs: 10 * 60_000 };
