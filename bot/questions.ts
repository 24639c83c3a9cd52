import { type Context, InlineKeyboard } from "grammy";
import { bankName } from "../src/banks/catalogue.js";
import type { BankCode } from "../src/banks/codes.js";
import type { BotConversation } from "./context.js";

/** Callback data of an answer button: `pick:<value>`. */
const PICK = "pick:";

/**
 * Asks with buttons and waits for one of them on this very message. Anything else the member sends (a
 * new receipt, a command) ends the question and is handled as usual.
 */
export async function askWithButtons<T extends string>(
  conversation: BotConversation,
  ctx: Context,
  html: string,
  options: ReadonlyArray<{ value: T; label: string }>,
  perRow = 2,
): Promise<{ value: T; answer: Context }> {
  const rows: ReturnType<typeof InlineKeyboard.text>[][] = [];
  options.forEach((option, index) => {
    const button = InlineKeyboard.text(option.label, `${PICK}${option.value}`);
    if (index % perRow === 0) rows.push([button]);
    else rows.at(-1)?.push(button);
  });
  const keyboard = InlineKeyboard.from(rows);
  const question = await ctx.reply(html, { parse_mode: "HTML", reply_markup: keyboard });
  const answer = await conversation.wait();
  const picked = pickedOn(answer, question.message_id);
  const option = options.find((candidate) => candidate.value === picked);
  if (!option) return conversation.halt({ next: true });
  await answer.answerCallbackQuery();
  return { value: option.value, answer };
}

/** The value of a pick button pressed on the given message, else null. */
export function pickedOn(answer: Context, messageId: number): string | null {
  const query = answer.callbackQuery;
  if (!query?.data?.startsWith(PICK) || query.message?.message_id !== messageId) return null;
  return query.data.slice(PICK.length);
}

export function bankOptions(banks: readonly BankCode[]): Array<{ value: BankCode; label: string }> {
  return banks.map((code) => ({ value: code, label: bankName(code) }));
}

/** Shows what was chosen in place of the question, without its buttons. */
export async function settle(answer: Context, html: string): Promise<void> {
  await answer.editMessageText(html, { parse_mode: "HTML" }).catch(() => undefined);
}
