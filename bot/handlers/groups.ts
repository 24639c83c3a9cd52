import { Composer, type Context } from "grammy";
import { type BotContext, type BotDependencies, inGroup, type MemberContext } from "../context.js";
import { languageMiddleware, textsOf } from "../i18n.js";
import { misreadHandlers } from "../misread.js";
import { groupReceiptHandlers } from "./group-receipts.js";
import { allowedManager } from "./manager.js";
import { RETRY_CALLBACK_PATTERN, retryVerification } from "./receipts.js";

/** Where the group's messages stand: the branch whose group it is (null: none) and the sender's membership. */
type GroupContext = BotContext & { groupBranchId: number | null };

/**
 * Group chats: a manager links the group to the branch with /link; then receipts that members of
 * that branch post or forward there are verified and answered as replies. Everyone else, chatter and
 * service messages get no answer; other commands point to the private chat. Group updates never reach the
 * private-chat handlers.
 */
export function groupChats(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const groups = composer.filter((ctx): ctx is GroupContext => inGroup(ctx));

  // The bot was removed from the group, or the group became a supergroup with a new id.
  groups.on("my_chat_member", async (ctx) => {
    const status = ctx.myChatMember.new_chat_member.status;
    if (status === "left" || status === "kicked")
      await deps.services.branches.forgetGroup(String(ctx.chat.id));
  });
  groups.on("message:migrate_to_chat_id", (ctx) =>
    deps.services.branches.moveGroup(String(ctx.chat.id), String(ctx.message.migrate_to_chat_id)),
  );

  groups.use(async (ctx, next) => {
    const [member, groupBranchId] = await Promise.all([
      ctx.from ? deps.services.members.find(String(ctx.from.id)) : null,
      deps.services.branches.branchOfGroup(String(ctx.chat?.id)),
    ]);
    ctx.member = member;
    ctx.groupBranchId = groupBranchId;
    await next();
  });
  groups.use(languageMiddleware());

  const managers = groups.filter((ctx): ctx is GroupContext & MemberContext => ctx.member !== null);
  managers.command("link", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const { t } = textsOf(ctx);
    const { branchName, branchId } = ctx.member;
    const outcome = await deps.services.branches.linkGroup(branchId, String(ctx.chat.id));
    if (outcome.kind === "taken") await ctx.reply(t("group-taken", { branch: outcome.branchName }));
    else if (outcome.kind === "already_linked")
      await ctx.reply(t("group-already-linked", { branch: branchName }));
    else {
      await ctx.reply(t("group-linked", { branch: branchName, bot: ctx.me.username }), {
        parse_mode: "HTML",
      });
      deps.logger.info({ branchId, chatId: ctx.chat.id }, "group linked");
    }
  });
  managers.command("unlink", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const { t } = textsOf(ctx);
    const unlinked = await deps.services.branches.unlinkGroup(ctx.member.branchId, String(ctx.chat.id));
    await ctx.reply(t(unlinked ? "group-unlinked" : "group-not-linked", { branch: ctx.member.branchName }), {
      parse_mode: "HTML",
    });
  });

  // From here on only members of the branch whose group this is are answered.
  const branchMembers = groups.filter(
    (ctx): ctx is GroupContext & MemberContext =>
      ctx.member !== null && ctx.groupBranchId === ctx.member.branchId,
  );
  branchMembers.on("message:text", async (ctx, next) => {
    const command = commandIn(ctx);
    if (command === undefined) return next();
    if (command === null) return;
    await ctx.reply(textsOf(ctx).t("group-private-only", { command: `/${command}`, bot: ctx.me.username }), {
      parse_mode: "HTML",
      reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true },
      link_preview_options: { is_disabled: true },
    });
  });
  branchMembers.callbackQuery(RETRY_CALLBACK_PATTERN, retryVerification(deps));
  branchMembers.use(misreadHandlers(deps));
  branchMembers.use(groupReceiptHandlers(deps));

  // Nobody else gets an answer; a button press is acknowledged so the client stops waiting.
  groups.on("callback_query", (ctx) => ctx.answerCallbackQuery());
  groups.use(() => undefined);
  return composer;
}

/**
 * The command a message starts with: its name; null for another bot's command ("/start@other_bot");
 * undefined when it is no command.
 */
function commandIn(ctx: Context & { message: { text: string } }): string | null | undefined {
  const entity = ctx.message.entities?.find((e) => e.type === "bot_command" && e.offset === 0);
  if (!entity) return undefined;
  const [name, target] = ctx.message.text.slice(1, entity.length).split("@");
  if (target !== undefined && target.toLowerCase() !== ctx.me.username.toLowerCase()) return null;
  return name?.toLowerCase() ?? null;
}
