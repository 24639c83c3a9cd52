import { Composer } from "grammy";
import type { VerifyInput } from "../../src/engine/types.js";
import { ValidationError } from "../../src/errors.js";
import { UnreadableImageError } from "../../src/receipts/ocr/index.js";
import { amountDue } from "../amount-due.js";
import type { BotDependencies, MemberContext } from "../context.js";
import { UnsupportedFileError } from "../download.js";
import { describeFailure } from "../failures.js";
import { textsOf } from "../i18n.js";
import { verifyInChat } from "../verify-in-chat.js";
import { BARE_REFERENCE, isReceiptFile, readReceiptFile, verifiedByLink } from "./receipts.js";

/**
 * Receipts a branch member posts or forwards in the branch's group. Unlike a private chat, where everything
 * sent is meant for the bot, a group is mostly people talking: a photo, file or text is answered only once
 * it has been read as a receipt. Questions (which bank, which account) are left to the private chat.
 */
export function groupReceiptHandlers(deps: BotDependencies): Composer<MemberContext> {
  const composer = new Composer<MemberContext>();

  composer.on(["message:photo", "message:document"], async (ctx) => {
    const { caption, caption_entities, document, photo } = ctx.message;
    if (await verifiedByLink(ctx, deps, caption ?? "", caption_entities)) return;
    if (document && !isReceiptFile(document)) return;
    await ctx.replyWithChatAction("typing").catch(() => undefined);
    const size = document ? document.file_size : photo?.at(-1)?.file_size;
    const input = await readQuietly(ctx, deps, () => readReceiptFile(ctx, deps, size));
    if (input)
      await verifyInChat(ctx, deps, textsOf(ctx).t("working"), async () => input, amountDue(caption));
  });

  composer.on("message:text", async (ctx) => {
    const { text, entities } = ctx.message;
    if (await verifiedByLink(ctx, deps, text, entities)) return;
    const word = text.trim();
    if (BARE_REFERENCE.test(word)) {
      // A bare transaction number needs a question or two; a word that fits no bank's numbers is chatter.
      if (deps.engine.banksForReference(word).length > 0) {
        await ctx.reply(textsOf(ctx).t("group-ask-in-private", { bot: ctx.me.username }), {
          parse_mode: "HTML",
          reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true },
          link_preview_options: { is_disabled: true },
        });
      }
      return;
    }
    const input = await readQuietly(
      ctx,
      deps,
      async (): Promise<VerifyInput> => ({
        kind: "receipt",
        ...(await deps.reader.read({ text })),
      }),
    );
    if (input) {
      const due = amountDue(text, input.kind === "receipt" ? input.claim.transactionNumber : null);
      await verifyInChat(ctx, deps, textsOf(ctx).t("working"), async () => input, due);
    }
  });
  return composer;
}

/**
 * Reads a posted message as a receipt: null, and no answer, when it holds none (chatter, a photo of
 * something else); a failure to read what may be a receipt (too large, download failed) is answered.
 */
async function readQuietly(
  ctx: MemberContext,
  deps: BotDependencies,
  read: () => Promise<VerifyInput>,
): Promise<VerifyInput | null> {
  try {
    return await read();
  } catch (error) {
    if (
      error instanceof ValidationError ||
      error instanceof UnreadableImageError ||
      error instanceof UnsupportedFileError
    )
      return null;
    await ctx.reply(describeFailure(textsOf(ctx), error, deps.logger), {
      parse_mode: "HTML",
      reply_parameters: { message_id: ctx.msgId ?? 0, allow_sending_without_reply: true },
    });
    return null;
  }
}
