import { type Context, InlineKeyboard } from "grammy";
import { BANK_CATALOGUE, bankName } from "../../src/banks/catalogue.js";
import type { BankCode } from "../../src/banks/codes.js";
import type { AccountChoice, VerifyInput } from "../../src/engine/types.js";
import type { BotConversation, BotDependencies, MemberContext } from "../context.js";
import { localeOf, type Texts, textsFor, textsOf } from "../i18n.js";
import { askWithButtons, bankOptions, pickedOn, settle } from "../questions.js";
import { verifyInChat } from "../verify-in-chat.js";

const ACCOUNT_DIGITS = /^\d{4,34}$/;
const PHONE = /^\+?\d{9,13}$/;

/**
 * A bare transaction number: which bank (when several fit), which receiving account (when the bank's lookup
 * needs one), or the payer's phone for CBE Birr; then the verification.
 */
export function referenceConversation(deps: BotDependencies) {
  return async function reference(
    conversation: BotConversation,
    ctx: Context,
    transactionNumber: string,
    banks: BankCode[],
  ): Promise<void> {
    const texts = await textsIn(conversation);
    const bank =
      banks.length === 1 && banks[0]
        ? banks[0]
        : await askBank(conversation, ctx, texts, transactionNumber, banks);
    const account = await askAccount(conversation, ctx, texts, bank, deps);
    await conversation.external((outer) =>
      verifyInChat(outer as MemberContext, deps, textsOf(outer).t("working"), async () => ({
        kind: "reference",
        bank,
        transactionNumber,
        ...account,
      })),
    );
  };
}

/**
 * A receipt or link whose bank needs an account the document does not carry (a CBE PDF shows the receiving
 * account masked): the same account question, then the verification of that document.
 */
export function accountConversation(deps: BotDependencies) {
  return async function account(
    conversation: BotConversation,
    ctx: Context,
    input: VerifyInput,
    bank: BankCode,
  ): Promise<void> {
    const choice = await askAccount(conversation, ctx, await textsIn(conversation), bank, deps);
    await conversation.external((outer) =>
      verifyInChat(outer as MemberContext, deps, textsOf(outer).t("working"), async () => ({
        ...input,
        ...choice,
      })),
    );
  };
}

/** The member's language, read once outside and replayed from the conversation's log like any answer. */
async function textsIn(conversation: BotConversation): Promise<Texts> {
  return textsFor(await conversation.external((outer) => localeOf(outer)));
}

async function askBank(
  conversation: BotConversation,
  ctx: Context,
  { t }: Texts,
  transactionNumber: string,
  banks: BankCode[],
): Promise<BankCode> {
  const { value, answer } = await askWithButtons(
    conversation,
    ctx,
    t("choose-bank", { reference: transactionNumber }),
    bankOptions(banks),
  );
  await settle(answer, t("bank-chosen", { reference: transactionNumber, bank: bankName(value) }));
  return value;
}

async function askAccount(
  conversation: BotConversation,
  ctx: Context,
  { t }: Texts,
  bank: BankCode,
  deps: BotDependencies,
): Promise<AccountChoice> {
  const info = BANK_CATALOGUE[bank];
  if (!info.requiresAccountNumber) return {};
  if ("accountRole" in info && info.accountRole === "payer_phone") {
    await ctx.reply(t("type-payer-phone"));
    const answer = await conversation.wait();
    const phone = answer.message?.text?.replace(/[\s-]/g, "");
    if (!phone || !PHONE.test(phone)) return conversation.halt({ next: true });
    return { accountNumber: phone };
  }

  const saved = await conversation.external(async (outer) => {
    const accounts = await deps.services.accounts.list((outer as MemberContext).member.branchId);
    return accounts
      .filter((account) => account.bank === bank)
      .map(({ id, label, accountNumber }) => ({ id, label, accountNumber }));
  });
  const keyboard = InlineKeyboard.from(
    saved.map((account) => [
      InlineKeyboard.text(`${account.label} · ${account.accountNumber}`, `pick:${account.id}`),
    ]),
  );
  const prompt =
    saved.length === 0
      ? t("type-account", { bank: info.name })
      : "accountRole" in info && info.accountRole === "sms_owner"
        ? t("type-sms-account", { bank: info.name })
        : t("choose-account", { bank: info.name });
  const question = await ctx.reply(prompt, { parse_mode: "HTML", reply_markup: keyboard });
  const answer = await conversation.wait();
  const picked = saved.find((account) => String(account.id) === pickedOn(answer, question.message_id));
  if (picked) {
    await answer.answerCallbackQuery();
    await settle(answer, `${prompt}\n→ ${picked.label} · ${picked.accountNumber}`);
    return { bankAccountId: picked.id };
  }
  const typed = answer.message?.text?.replace(/[\s-]/g, "");
  if (!typed || !ACCOUNT_DIGITS.test(typed)) return conversation.halt({ next: true });
  return { accountNumber: typed };
}
