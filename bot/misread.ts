import { Composer, InlineKeyboard } from "grammy";
import { readFromImage, type VerificationOutcome } from "../src/engine/types.js";
import { NotFoundError } from "../src/errors.js";
import { notFoundCard } from "./card.js";
import type { BotDependencies, MemberContext } from "./context.js";
import { type Texts, textsOf } from "./i18n.js";

// A reference read from a photo that the bank does not know is never "not found" outright: the card shows
// what was read and asks. "Yes" makes it the cashier's reference, and the bank's answer stands (no second
// lookup, no second quota unit); "Type it" asks for the reference, link or SMS, which verify as usual.
const AS_READ = "asread:";
const TYPE_IT = "typeref";
const AS_READ_PATTERN = new RegExp(`^${AS_READ}(\\d{1,15})$`);

/** The buttons under the card of a reference read from a photo and not found as read; none under others. */
export function misreadKeyboard(texts: Texts, outcome: VerificationOutcome): InlineKeyboard | undefined {
  if (outcome.kind !== "not_found" || !readFromImage(outcome.record.verificationMethod)) return undefined;
  return new InlineKeyboard()
    .text(texts.t("misread-yes-button"), `${AS_READ}${outcome.record.id}`)
    .text(texts.t("misread-type-button"), TYPE_IT);
}

/** The answers to the card's buttons, for a branch's members (in private and in the branch's group). */
export function misreadHandlers(deps: BotDependencies): Composer<MemberContext> {
  const composer = new Composer<MemberContext>();
  composer.callbackQuery(AS_READ_PATTERN, async (ctx) => {
    const texts = textsOf(ctx);
    const record = await deps.services.history
      .get(ctx.member.branchId, Number(ctx.match[1]))
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
    // Only a record this card stands for: the bank did not know a reference read from an image.
    if (!record || record.exists || !readFromImage(record.verificationMethod)) {
      await ctx.answerCallbackQuery({ text: texts.t("misread-gone"), show_alert: true });
      return;
    }
    await ctx.answerCallbackQuery();
    await ctx.editMessageText(notFoundCard(texts, record), { parse_mode: "HTML" }).catch(() => undefined);
  });
  composer.callbackQuery(TYPE_IT, async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    await ctx.reply(textsOf(ctx).t("misread-type-prompt"));
  });
  return composer;
}
