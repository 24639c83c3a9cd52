import { Composer } from "grammy";
import { type BotContext, type BotDependencies, isMember } from "../context.js";
import { textsOf } from "../i18n.js";
import { allowedManager } from "./manager.js";

/** /invite cashier|manager: a one-time deep link into the manager's branch. */
export function inviteCommand(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.filter(isMember).command("invite", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const { t } = textsOf(ctx);
    const role = ctx.match.trim().toLowerCase();
    if (role !== "cashier" && role !== "manager") {
      await ctx.reply(t("invite-usage"));
      return;
    }
    const invite = await deps.services.members.createInvite(ctx.member.branchId, role);
    const link = `https://t.me/${ctx.me.username}?start=${invite.code}`;
    await ctx.reply(t("invite", { role, branch: ctx.member.branchName, link }), {
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    });
    deps.logger.info({ memberId: ctx.member.id, role }, "invite created in the bot");
  });
  return composer;
}
