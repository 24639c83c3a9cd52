import type { Context } from "grammy";
import { isManager } from "../../src/auth/roles.js";
import type { MemberContext } from "../context.js";
import { textsOf } from "../i18n.js";

/**
 * Whether the member may run a manager action; a cashier is told so (as a reply to a command, or as the
 * answer to a button) and nothing else happens.
 */
export async function allowedManager(ctx: MemberContext | (Context & MemberContext)): Promise<boolean> {
  if (isManager(ctx.member.role)) return true;
  const text = textsOf(ctx).t("managers-only");
  if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text, show_alert: true });
  else await ctx.reply(text);
  return false;
}
