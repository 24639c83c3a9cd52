import { createHash, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Middleware } from "koa";
import { koaBody } from "koa-body";
import { z } from "zod";
import type { BotContext } from "./context.js";
import type { UpdateDispatcher } from "./dispatcher.js";

/**
 * Telegram waits for the answer and re-sends the update when none comes within about a minute; after this
 * long the update is acknowledged and finishes in the background, so it is never handled twice.
 */
const ANSWER_WITHIN_MS = 25_000;

const updateSchema = z.looseObject({ update_id: z.number().int().nonnegative() });

const parseJson = koaBody({ json: true, jsonLimit: "1mb", multipart: false, urlencoded: false, text: false });

/**
 * POST <path of BOT_WEBHOOK_URL> on the API's Koa app. Only requests carrying the secret token set with
 * setWebhook are accepted; updates go through the same dispatcher as polling (ordered per chat).
 */
export function webhookRoute(options: {
  path: string;
  secret: string;
  bot: Bot<BotContext>;
  dispatcher: UpdateDispatcher;
}): Middleware {
  const expected = digest(options.secret);
  return async (ctx, next) => {
    if (ctx.path !== options.path) return next();
    if (ctx.method !== "POST") {
      ctx.status = 405;
      ctx.body = { message: "The method is not allowed for this route." };
      return;
    }
    const given = ctx.get("x-telegram-bot-api-secret-token");
    if (!timingSafeEqual(digest(given), expected)) {
      ctx.status = 401;
      ctx.body = { message: "Unauthenticated." };
      return;
    }
    if (!options.bot.isInited()) {
      // Telegram retries later; by then getMe has answered.
      ctx.status = 503;
      ctx.body = { message: "The bot is starting." };
      return;
    }
    await parseJson(ctx, async () => undefined);
    const parsed = updateSchema.safeParse(ctx.request.body);
    if (!parsed.success) {
      ctx.status = 400;
      ctx.body = { message: "The request body is not a Telegram update." };
      return;
    }
    const handled = options.dispatcher.dispatch(parsed.data as Update);
    await Promise.race([handled, sleep(ANSWER_WITHIN_MS)]);
    ctx.status = 200;
    ctx.body = { ok: true };
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
