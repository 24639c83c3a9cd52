import { Composer, InlineKeyboard } from "grammy";
import type { VerificationOutcome } from "../src/engine/types.js";
import { NotFoundError } from "../src/errors.js";
import { compareWithDue } from "./amount-due.js";
import { type CardChecks, recordCard, resultCard } from "./card.js";
import { type BotContext, type BotDependencies, isMember, type MemberContext } from "./context.js";
import { allowedManager } from "./handlers/manager.js";
import { isLocale, textsFor, textsOf } from "./i18n.js";
import { staleBy } from "./staleness.js";

/** Callback data of an alert's button: this prefix and the verification's id. */
const ENTRY_CALLBACK = "entry:";

/**
 * Whether a verification's outcome is one a manager wants pushed: duplicate, wrong account,
 * not completed, document and bank disagree, and among confirmations: paid outside the saved accounts,
 * stale, reused at another branch, or short of the amount due.
 */
export function isFlagged(outcome: VerificationOutcome, checks: CardChecks): boolean {
  if (outcome.kind === "not_found") return false;
  if (outcome.kind !== "confirmed") return true;
  const { record } = outcome;
  const short =
    checks.due != null &&
    record.amount !== null &&
    compareWithDue(record.amount, checks.due).kind === "short";
  const stale = staleBy(record.transactionDate, checks.staleLimit ?? null, checks.now) !== null;
  return outcome.receiverNotSaved || Boolean(checks.elsewhere) || stale || short;
}

/** Pushes a flagged outcome to the branch's managers with alerts on (not to whoever checked it). */
export async function pushAlerts(
  ctx: MemberContext,
  deps: BotDependencies,
  outcome: VerificationOutcome,
  checks: CardChecks,
): Promise<void> {
  const recipients = await deps.services.members.alertRecipients(ctx.member.branchId);
  for (const recipient of recipients) {
    if (recipient.telegramUserId === ctx.member.telegramUserId) continue;
    const texts = textsFor(isLocale(recipient.language) ? recipient.language : "en");
    const header = texts.t("alert-header", { name: ctx.member.name });
    const keyboard = new InlineKeyboard().text(
      texts.t("alert-open"),
      `${ENTRY_CALLBACK}${outcome.record.id}`,
    );
    await ctx.api
      .sendMessage(Number(recipient.telegramUserId), `${header}\n\n${resultCard(texts, outcome, checks)}`, {
        parse_mode: "HTML",
        reply_markup: keyboard,
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, "could not push an alert"));
  }
}

/** /alerts on|off (managers), and the alerts' "Open" button that shows the history entry. */
export function alertCommands(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const members = composer.filter(isMember);
  members.command("alerts", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const { t } = textsOf(ctx);
    const choice = ctx.match.trim().toLowerCase();
    if (choice !== "on" && choice !== "off") {
      await ctx.reply(t("alerts-usage"));
      return;
    }
    await deps.services.members.setAlerts(ctx.member.telegramUserId, choice === "on");
    await ctx.reply(t(choice === "on" ? "alerts-on" : "alerts-off"));
  });
  members.callbackQuery(new RegExp(`^${ENTRY_CALLBACK}(\\d{1,12})$`), async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const texts = textsOf(ctx);
    await ctx.answerCallbackQuery();
    try {
      const record = await deps.services.history.get(ctx.member.branchId, Number(ctx.match[1]));
      await ctx.reply(recordCard(texts, record), { parse_mode: "HTML" });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      await ctx.reply(texts.t("entry-gone"));
    }
  });
  return composer;
}
