import { type Context, InlineKeyboard } from "grammy";
import { listAccounts } from "../../src/accounts/saved-accounts.js";
import { BANK_CATALOGUE, bankName } from "../../src/banks/catalogue.js";
import type { BankCode } from "../../src/banks/codes.js";
import type { AccountChoice, VerifyInput } from "../../src/engine/types.js";
import type { BotConversation, BotDependencies, MemberContext } from "../context.js";
import { askWithButtons, bankOptions, pickedOn, settle } from "../questions.js";
import { TEXTS } from "../texts.js";
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
    const bank =
      banks.length === 1 && banks[0] ? banks[0] : await askBank(conversation, ctx, transactionNumber, banks);
    const account = await askAccount(conversation, ctx, bank, deps);
    await conversation.external((outer) =>
      verifyInChat(outer as MemberContext, deps, TEXTS.working, async () => ({
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
    const choice = await askAccount(conversation, ctx, bank, deps);
    await conversation.external((outer) =>
      verifyInChat(outer as MemberContext, deps, TEXTS.working, async () => ({ ...input, ...choice })),
    );
  };
}

async function askBank(
  conversation: BotConversation,
  ctx: Context,
  transactionNumber: string,
  banks: BankCode[],
): Promise<BankCode> {
  const { value, answer } = await askWithButtons(
    conversation,
    ctx,
    TEXTS.chooseBank(transactionNumber),
    bankOptions(banks),
  );
  await settle(answer, TEXTS.bankChosen(transactionNumber, bankName(value)));
  return value;
}

async function askAccount(
  conversation: BotConversation,
  ctx: Context,
  bank: BankCode,
  deps: BotDependencies,
): Promise<AccountChoice> {
  const info = BANK_CATALOGUE[bank];
  if (!info.requiresAccountNumber) return {};
  if ("accountRole" in info && info.accountRole === "payer_phone") {
    await ctx.reply(TEXTS.typePayerPhone);
    const answer = await conversation.wait();
    const phone = answer.message?.text?.replace(/[\s-]/g, "");
    if (!phone || !PHONE.test(phone)) return conversation.halt({ next: true });
    return { accountNumber: phone };
  }

  const saved = await conversation.external(async (outer) => {
    const accounts = await listAccounts(deps.orm.em.fork(), (outer as MemberContext).member.branchId);
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
      ? TEXTS.typeAccount(info.name)
      : "accountRole" in info && info.accountRole === "sms_owner"
        ? TEXTS.typeSmsAccount(info.name)
        : TEXTS.chooseAccount(info.name);
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
