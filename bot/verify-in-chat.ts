import { InlineKeyboard } from "grammy";
import { bankName } from "../src/banks/catalogue.js";
import { BankUnavailableError } from "../src/banks/errors.js";
import type { VerificationOutcome, VerifyCaller, VerifyInput } from "../src/engine/types.js";
import type { Member } from "../src/telegram/members.js";
import { isFlagged, pushAlerts } from "./alerts.js";
import { resultCard } from "./card.js";
import { type BotDependencies, inGroup, type MemberContext } from "./context.js";
import { ACCOUNT_CONVERSATION } from "./conversation-ids.js";
import { describeFailure } from "./failures.js";
import { textsOf } from "./i18n.js";
import { misreadKeyboard } from "./misread.js";
import { type StatusMessage, startStatus } from "./status.js";

/**
 * One verification from a member's chat: a status message that follows the steps, the shared engine
 * (same history, duplicates and quota as the API), then the result card in place of the status.
 */
export async function verifyInChat(
  ctx: MemberContext,
  deps: BotDependencies,
  firstStep: string,
  prepare: (status: StatusMessage) => Promise<VerifyInput>,
  /** The amount the cashier said the customer owes, if any (`amountDue`). */
  due: number | null = null,
): Promise<void> {
  // The verification's deadline counts from the message, downloading and reading included.
  const arrivedAt = Date.now();
  const texts = textsOf(ctx);
  const { t } = texts;
  const status = await startStatus(ctx, firstStep);
  let input: VerifyInput | null = null;
  try {
    input = await prepare(status);
    const caller = { ...callerOf(ctx.member), ...requestRefOf(ctx) };
    const { bank, missing } = await deps.engine.prepare(caller, input);
    if (missing) {
      // Questions are asked in private: in a group the answers of several cashiers would cross.
      if (inGroup(ctx)) {
        await status.finish(t("group-ask-in-private", { bot: ctx.me.username }));
        return;
      }
      await status.finish(t("receipt-needs-account", { bank: bankName(bank) }));
      await ctx.conversation.enter(ACCOUNT_CONVERSATION, input, bank);
      return;
    }
    await status.update(t("checking-with", { bank: bankName(bank) }));
    const slow = setTimeout(() => {
      status.update(t("bank-slow", { bank: bankName(bank) })).catch(() => undefined);
    }, SLOW_BANK_MS);
    let outcome: VerificationOutcome;
    try {
      outcome = await deps.engine.verify(caller, input, { startedAt: arrivedAt });
    } finally {
      clearTimeout(slow);
    }
    const checks = {
      due,
      ...(outcome.kind === "confirmed" ? await confirmedChecks(deps, ctx.member, outcome) : {}),
    };
    await status.finish(resultCard(texts, outcome, checks), misreadKeyboard(texts, outcome));
    if (isFlagged(outcome, checks)) await pushAlerts(ctx, deps, outcome, checks);
  } catch (error) {
    if (input && error instanceof BankUnavailableError) {
      // Nothing was recorded: the same verification can simply run again.
      const id = deps.retries.keep(ctx.member.branchId, input);
      const key = error.reason === "timeout" ? "bank-timed-out" : "bank-down";
      const keyboard = new InlineKeyboard().text(t("retry-button"), `${RETRY_CALLBACK}${id}`);
      await status.finish(t(key, { bank: bankName(error.bank) }), keyboard);
      return;
    }
    await status.finish(describeFailure(texts, error, deps.logger));
  }
}

/** What the card of a new confirmation also tells: the branch's stale limit, and another branch's use. */
async function confirmedChecks(deps: BotDependencies, member: Member, outcome: VerificationOutcome) {
  const { record } = outcome;
  const [staleLimit, elsewhere] = await Promise.all([
    deps.services.branches.staleLimit(member.branchId),
    deps.services.history.confirmedElsewhere({
      businessId: member.businessId,
      branchId: member.branchId,
      bank: record.bank,
      transactionNumber: record.transactionNumber,
    }),
  ]);
  return { staleLimit, elsewhere };
}

/** Callback data of the "Try again" button: this prefix and the retry store's id. */
export const RETRY_CALLBACK = "retry:";
// After this long on one bank the status says the bank is slow; the engine keeps trying until the deadline.
const SLOW_BANK_MS = 5_000;

/**
 * The update's own name, which Telegram keeps when it delivers it again (after a crash, before the webhook's
 * answer or the poller's next offset): the chat and message id, or a button press's id.
 */
function requestRefOf(ctx: MemberContext): { requestRef?: string } {
  if (ctx.callbackQuery) return { requestRef: `telegram:callback:${ctx.callbackQuery.id}` };
  const message = ctx.msg;
  return message ? { requestRef: `telegram:${message.chat.id}:${message.message_id}` } : {};
}

export function callerOf(member: Member): VerifyCaller {
  return {
    branchId: member.branchId,
    businessId: member.businessId,
    sandbox: false,
    source: { type: "telegram", label: member.name },
  };
}
