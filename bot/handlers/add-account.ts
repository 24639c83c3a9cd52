import { type Context, InlineKeyboard } from "grammy";
import { isManager } from "../../src/auth/roles.js";
import { bankName } from "../../src/banks/catalogue.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import type { BotConversation, BotDependencies, MemberContext } from "../context.js";
import { escapeHtml } from "../format.js";
import { localeOf, textsFor } from "../i18n.js";
import { askWithButtons, bankOptions, pickedOn, settle } from "../questions.js";
import { accountName } from "./accounts.js";

/** Same rule as the API: spaces and dashes dropped, then 1 to 34 digits. */
const ACCOUNT_NUMBER = /^\d{1,34}$/;
const MAX_LABEL = 100;

/** A manager adds a receiving account: bank, number, label (or skip), primary or not. */
export function addAccountConversation(deps: BotDependencies) {
  return async function addAccount(conversation: BotConversation, ctx: Context): Promise<void> {
    // The language is read once, outside, and replayed from the conversation's log like any answer.
    const { t } = textsFor(await conversation.external((outer) => localeOf(outer)));
    const bank = await askWithButtons(conversation, ctx, t("add-bank"), bankOptions(BANK_CODES));
    await settle(bank.answer, escapeHtml(bankName(bank.value)));

    await ctx.reply(t("add-number", { bank: bankName(bank.value) }), { parse_mode: "HTML" });
    const accountNumber = await typed(conversation, t("not-an-account"), (text) => {
      const digits = text.replace(/[\s-]/g, "");
      return ACCOUNT_NUMBER.test(digits) ? digits : null;
    });

    const skip = new InlineKeyboard().text(t("add-label-skip"), "pick:skip");
    const labelQuestion = await ctx.reply(t("add-label"), { reply_markup: skip });
    const label = await typed(
      conversation,
      t("label-too-long"),
      (text) => {
        const trimmed = text.trim();
        return trimmed.length > 0 && trimmed.length <= MAX_LABEL ? trimmed : null;
      },
      (answer) => (pickedOn(answer, labelQuestion.message_id) === "skip" ? bankName(bank.value) : null),
    );

    const primary = await askWithButtons(conversation, ctx, t("add-primary"), [
      { value: "yes", label: t("yes") },
      { value: "no", label: t("no") },
    ]);
    await settle(primary.answer, `${t("add-primary")} ${primary.value === "yes" ? t("yes") : t("no")}`);

    await conversation.external(async (outer) => {
      const { member } = outer as MemberContext;
      // The role is checked again: it may have changed while the questions were open.
      if (!isManager(member.role)) {
        await outer.reply(t("managers-only"));
        return;
      }
      const account = await deps.services.accounts.create(member.branchId, {
        bank: bank.value,
        accountNumber,
        label,
        isPrimary: primary.value === "yes",
      });
      await outer.reply(t("added", { account: accountName(account) }), { parse_mode: "HTML" });
    });
  };
}

/**
 * Waits for a text the check accepts (or a button `pressed` accepts), asking again after a wrong one; a
 * command, a file or another button ends the conversation and is handled as usual.
 */
async function typed(
  conversation: BotConversation,
  again: string,
  accept: (text: string) => string | null,
  pressed?: (answer: Context) => string | null,
): Promise<string> {
  for (;;) {
    const answer = await conversation.wait();
    const button = pressed?.(answer);
    if (button) {
      await answer.answerCallbackQuery();
      await settle(answer, escapeHtml(button));
      return button;
    }
    const text = answer.message?.text;
    if (text === undefined || text.startsWith("/")) return conversation.halt({ next: true });
    const value = accept(text);
    if (value !== null) return value;
    await answer.reply(again);
  }
}
