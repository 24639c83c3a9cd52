import { paidOutsideSavedAccounts } from "../src/accounts/saved-accounts.js";
import { bankName } from "../src/banks/catalogue.js";
import type { BankCode } from "../src/banks/codes.js";
import type { VerifyCaller, VerifyInput } from "../src/engine/types.js";
import type { Member } from "../src/telegram/members.js";
import { resultCard } from "./card.js";
import type { BotDependencies, MemberContext } from "./context.js";
import { ACCOUNT_CONVERSATION } from "./conversation-ids.js";
import { describeFailure } from "./failures.js";
import { textsOf } from "./i18n.js";
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
): Promise<void> {
  const texts = textsOf(ctx);
  const { t } = texts;
  const status = await startStatus(ctx, firstStep);
  try {
    const input = await prepare(status);
    const bank = bankOf(input, deps);
    if (needsAccount(input, deps)) {
      await status.finish(t("receipt-needs-account", { bank: bankName(bank) }));
      await ctx.conversation.enter(ACCOUNT_CONVERSATION, input, bank);
      return;
    }
    await status.update(t("checking-with", { bank: bankName(bank) }));
    const outcome = await deps.engine.verify(callerOf(ctx.member), input);
    const { record } = outcome;
    const receiverNotSaved =
      outcome.kind === "confirmed" &&
      (await paidOutsideSavedAccounts(
        deps.orm.em.fork(),
        ctx.member.branchId,
        record.bank,
        record.receiverAccount,
      ));
    await status.finish(resultCard(texts, outcome, { receiverNotSaved }));
  } catch (error) {
    await status.finish(describeFailure(texts, error, deps.logger));
  }
}

export function callerOf(member: Member): VerifyCaller {
  return {
    branchId: member.branchId,
    businessId: member.businessId,
    sandbox: false,
    source: { type: "telegram", label: member.name },
  };
}

/** A link or receipt that does not carry the account its bank's lookup needs (asked for, then verified). */
function needsAccount(input: VerifyInput, deps: BotDependencies): boolean {
  if (input.accountNumber !== undefined || input.bankAccountId !== undefined) return false;
  if (input.kind === "url") return deps.engine.parseReceiptUrl(input.receiptUrl).requiresAccountNumber;
  if (input.kind === "receipt") return deps.engine.describeReceipt(input.claim).requiresAccountNumber;
  return false;
}

function bankOf(input: VerifyInput, deps: BotDependencies): BankCode {
  if (input.kind === "reference") return input.bank;
  if (input.kind === "url") return deps.engine.parseReceiptUrl(input.receiptUrl).bank;
  return input.claim.bank;
}
