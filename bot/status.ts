import { GrammyError, type InlineKeyboard } from "grammy";
import type { BotContext } from "./context.js";

/** The one message that tells the cashier what is happening, edited as steps finish, then replaced by the result. */
export interface StatusMessage {
  /** A step; ignored once the status is finished (a late "still waiting" never hides the result). */
  update(text: string): Promise<void>;
  /** The final text (HTML), in place of the status, with buttons under it when given. */
  finish(html: string, keyboard?: InlineKeyboard): Promise<void>;
}

export async function startStatus(ctx: BotContext, text: string): Promise<StatusMessage> {
  const chatId = ctx.chatId;
  if (chatId === undefined) throw new Error("a status message needs a chat");
  await ctx.api.sendChatAction(chatId, "typing").catch(() => undefined);
  // In a group several cashiers post at once: the answer replies to the receipt it is about.
  const replyTo =
    ctx.chat?.type !== "private" && ctx.msgId !== undefined
      ? { reply_parameters: { message_id: ctx.msgId, allow_sending_without_reply: true } }
      : {};
  const sent = await ctx.api.sendMessage(chatId, text, { parse_mode: "HTML", ...replyTo });
  let shown = text;
  let finished = false;
  // Edits go out one at a time, in the order they were asked for.
  let queue = Promise.resolve();
  const edit = async (next: string, keyboard?: InlineKeyboard) => {
    if (next === shown && !keyboard) return;
    const options = {
      parse_mode: "HTML" as const,
      link_preview_options: { is_disabled: true },
      ...(keyboard ? { reply_markup: keyboard } : {}),
    };
    try {
      await ctx.api.editMessageText(chatId, sent.message_id, next, options);
      shown = next;
    } catch (error) {
      // The cashier may have deleted the status message: say it in a new one instead.
      if (
        error instanceof GrammyError &&
        error.error_code === 400 &&
        !/not modified/.test(error.description)
      ) {
        await ctx.api.sendMessage(chatId, next, { ...options, ...replyTo });
        shown = next;
        return;
      }
      if (!(error instanceof GrammyError)) throw error;
    }
  };
  const enqueue = (run: () => Promise<void>) => {
    const done = queue.then(run);
    queue = done.catch(() => undefined);
    return done;
  };
  return {
    update: (next) => (finished ? Promise.resolve() : enqueue(() => edit(next))),
    finish: (html, keyboard) => {
      finished = true;
      return enqueue(() => edit(html, keyboard));
    },
  };
}
