import { Composer } from "grammy";
import type { MessageEntity } from "grammy/types";
import type { VerifyInput } from "../../src/engine/types.js";
import { ValidationError } from "../../src/errors.js";
import { UnreferencedReceiptError } from "../../src/receipts/unreferenced.js";
import { amountDue } from "../amount-due.js";
import { type BotContext, type BotDependencies, isMember, type MemberContext } from "../context.js";
import { REFERENCE_CONVERSATION } from "../conversation-ids.js";
import { UnsupportedFileError, withDownloadedFile } from "../download.js";
import { unreferencedReceipt } from "../failures.js";
import { textsOf } from "../i18n.js";
import { linksIn } from "../links.js";
import { misreadHandlers } from "../misread.js";
import type { StatusMessage } from "../status.js";
import { RETRY_CALLBACK, verifyInChat } from "../verify-in-chat.js";

const RECEIPT_FILE_TYPES = /^(application\/pdf|image\/(jpeg|png|webp))$/;
const RECEIPT_FILE_NAMES = /\.(pdf|jpe?g|png|webp)$/i;
/** A bare transaction number: one word of letters, digits and dashes (Awash's start with one). */
export const BARE_REFERENCE = /^[A-Za-z0-9-]{5,40}$/;

/** A cashier's receipts: links and SMS text, bare transaction numbers, photos and PDFs. */
export function receiptHandlers(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const members = composer.filter(isMember);

  members.on("message:document", async (ctx) => {
    const { document, caption, caption_entities } = ctx.message;
    if (await verifiedByLink(ctx, deps, caption ?? "", caption_entities)) return;
    const supported = isReceiptFile(document);
    await verifyInChat(
      ctx,
      deps,
      textsOf(ctx).t("downloading"),
      async (status) => {
        if (!supported) throw new UnsupportedFileError();
        return readReceiptFile(ctx, deps, document.file_size, status);
      },
      amountDue(caption),
    );
  });

  members.on("message:photo", async (ctx) => {
    const { photo, caption, caption_entities } = ctx.message;
    if (await verifiedByLink(ctx, deps, caption ?? "", caption_entities)) return;
    await verifyInChat(
      ctx,
      deps,
      textsOf(ctx).t("downloading"),
      (status) => readReceiptFile(ctx, deps, photo.at(-1)?.file_size, status),
      amountDue(caption),
    );
  });

  members.on("message:text", async (ctx) => {
    const { t } = textsOf(ctx);
    const { text, entities } = ctx.message;
    if (text.startsWith("/")) {
      await ctx.reply(t("not-understood"));
      return;
    }
    if (await verifiedByLink(ctx, deps, text, entities)) return;
    const word = text.trim();
    if (BARE_REFERENCE.test(word)) {
      const banks = deps.engine.banksForReference(word);
      if (banks.length === 0) await ctx.reply(t("unknown-reference"));
      else await ctx.conversation.enter(REFERENCE_CONVERSATION, word, banks);
      return;
    }
    // A copied SMS or receipt page without a link: the receipt parsers find the bank and the reference.
    let read: Awaited<ReturnType<typeof deps.reader.read>>;
    try {
      read = await deps.reader.read({ text });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      if (error instanceof UnreferencedReceiptError && error.statesTransfer) {
        await ctx.reply(unreferencedReceipt(textsOf(ctx), error.reading), { parse_mode: "HTML" });
      } else {
        await ctx.reply(linksIn(text, entities).length > 0 ? t("unknown-link") : t("not-understood"));
      }
      return;
    }
    const due = amountDue(text, read.claim.transactionNumber);
    await verifyInChat(ctx, deps, t("working"), async () => ({ kind: "receipt", ...read }), due);
  });

  members.on("message", (ctx) => ctx.reply(textsOf(ctx).t("not-understood")));

  members.callbackQuery(RETRY_CALLBACK_PATTERN, retryVerification(deps));
  members.use(misreadHandlers(deps));
  return composer;
}

export const RETRY_CALLBACK_PATTERN = new RegExp(`^${RETRY_CALLBACK}([A-Za-z0-9_-]{1,32})$`);

/** "Try again" under a card of a bank that did not answer: the same verification, from the start. */
export function retryVerification(deps: BotDependencies) {
  return async (ctx: MemberContext & { match: string | RegExpMatchArray }) => {
    const { t } = textsOf(ctx);
    const id = typeof ctx.match === "string" ? ctx.match : (ctx.match[1] ?? "");
    const input = deps.retries.take(id, ctx.member.branchId);
    if (!input) {
      await ctx.answerCallbackQuery({ text: t("retry-expired"), show_alert: true });
      return;
    }
    await ctx.answerCallbackQuery();
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    await verifyInChat(ctx, deps, t("working"), async () => input);
  };
}

/** A document a receipt can be in: a PDF or an image, by its type or else its name. */
export function isReceiptFile(document: { mime_type?: string; file_name?: string }): boolean {
  return (
    RECEIPT_FILE_TYPES.test(document.mime_type ?? "") || RECEIPT_FILE_NAMES.test(document.file_name ?? "")
  );
}

/** Downloads the message's file and reads the receipt in it (PDF text, or OCR of an image). */
export function readReceiptFile(
  ctx: MemberContext,
  deps: BotDependencies,
  size: number | undefined,
  status?: StatusMessage,
) {
  return withDownloadedFile(ctx, size, async (file): Promise<VerifyInput> => {
    await status?.update(textsOf(ctx).t("reading"));
    return { kind: "receipt", ...(await deps.reader.read({ file: { path: file } })) };
  });
}

/** Verifies by the first bank receipt link in the text, if there is one. */
export async function verifiedByLink(
  ctx: MemberContext,
  deps: BotDependencies,
  text: string,
  entities: MessageEntity[] | undefined,
): Promise<boolean> {
  const link = deps.engine.findReceiptLink(linksIn(text, entities));
  if (!link) return false;
  await verifyInChat(
    ctx,
    deps,
    textsOf(ctx).t("working"),
    async () => ({ kind: "url", receiptUrl: link }),
    amountDue(text, link),
  );
  return true;
}
