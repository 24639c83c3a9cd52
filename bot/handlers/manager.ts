import type { Context } from "grammy";
import { isManager } from "../../src/auth/roles.js";
import type { MemberContext } from "../context.js";
import { TEXTS } from "../texts.js";

/**
 * Whether the member may run a manager action; a cashier is told so (as a reply to a command, or as the
 * answer to a button) and nothing else happens.
 */
export async function allowedManager(ctx: MemberContext | (Context & MemberContext)): Promise<boolean> {
  if (isManager(ctx.member.role)) return true;
  if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: TEXTS.managersOnly, show_alert: true });
  else await ctx.reply(TEXTS.managersOnly);
  return false;
}
