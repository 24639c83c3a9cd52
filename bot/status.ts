import { GrammyError } from "grammy";
import type { BotContext } from "./context.js";

/** The one message that tells the cashier what is happening, edited as steps finish, then replaced by the result. */
export interface StatusMessage {
  update(text: string): Promise<void>;
  /** The final text (HTML), in place of the status. */
  finish(html: string): Promise<void>;
}

export async function startStatus(ctx: BotContext, text: string): Promise<StatusMessage> {
  const chatId = ctx.chatId;
  if (chatId === undefined) throw new Error("a status message needs a chat");
  await ctx.api.sendChatAction(chatId, "typing").catch(() => undefined);
  const sent = await ctx.api.sendMessage(chatId, text, { parse_mode: "HTML" });
  let shown = text;
  const edit = async (next: string) => {
    if (next === shown) return;
    try {
      await ctx.api.editMessageText(chatId, sent.message_id, next, {
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
      });
      shown = next;
    } catch (error) {
      // The cashier may have deleted the status message: say it in a new one instead.
      if (
        error instanceof GrammyError &&
        error.error_code === 400 &&
        !/not modified/.test(error.description)
      ) {
        await ctx.api.sendMessage(chatId, next, { parse_mode: "HTML" });
        shown = next;
        return;
      }
      if (!(error instanceof GrammyError)) throw error;
    }
  };
  return { update: edit, finish: edit };
}
