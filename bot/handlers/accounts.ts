import { Composer, InlineKeyboard } from "grammy";
import type { SavedAccountRecord } from "../../src/accounts/saved-accounts.js";
import { bankName } from "../../src/banks/catalogue.js";
import type { BankCode } from "../../src/banks/codes.js";
import { NotFoundError } from "../../src/errors.js";
import { type BotContext, type BotDependencies, isMember, type MemberContext } from "../context.js";
import { ADD_ACCOUNT_CONVERSATION } from "../conversation-ids.js";
import { escapeHtml } from "../format.js";
import { type Texts, textsOf } from "../i18n.js";
import { allowedManager } from "./manager.js";

/** /accounts: the branch's saved receiving accounts, with buttons to add, set primary and delete. */
export function accountsCommands(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const members = composer.filter(isMember);

  members.command("accounts", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const view = await accountsView(deps, textsOf(ctx), ctx.member.branchId, ctx.member.branchName);
    await ctx.reply(view.text, { parse_mode: "HTML", reply_markup: view.keyboard });
  });

  members.callbackQuery("acc:add", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(ADD_ACCOUNT_CONVERSATION);
  });

  members.callbackQuery(/^acc:primary:(\d{1,10})$/, async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const account = await changed(ctx, () =>
      deps.services.accounts.update(ctx.member.branchId, Number(ctx.match[1]), { isPrimary: true }),
    );
    if (account) await showAccounts(ctx, textsOf(ctx).t("made-primary", { account: accountName(account) }));
  });

  members.callbackQuery(/^acc:delete:(\d{1,10})$/, async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const id = Number(ctx.match[1]);
    const account = (await deps.services.accounts.list(ctx.member.branchId)).find((a) => a.id === id);
    const { t } = textsOf(ctx);
    if (!account) {
      await ctx.answerCallbackQuery({ text: t("account-gone") });
      return;
    }
    await ctx.answerCallbackQuery();
    const keyboard = new InlineKeyboard()
      .text(t("confirm-delete-yes"), `acc:delete-yes:${id}`)
      .text(t("confirm-delete-no"), "acc:list");
    await ctx.editMessageText(t("confirm-delete", { account: accountName(account) }), {
      parse_mode: "HTML",
      reply_markup: keyboard,
    });
  });

  members.callbackQuery(/^acc:delete-yes:(\d{1,10})$/, async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const id = Number(ctx.match[1]);
    const account = (await deps.services.accounts.list(ctx.member.branchId)).find((a) => a.id === id);
    const deleted = await changed(ctx, async () => {
      await deps.services.accounts.delete(ctx.member.branchId, id);
      return account;
    });
    if (deleted) await showAccounts(ctx, textsOf(ctx).t("deleted", { account: accountName(deleted) }));
  });

  members.callbackQuery("acc:list", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    await showAccounts(ctx, null);
  });

  /** Replaces the message with the current list, under a line saying what changed. */
  async function showAccounts(ctx: MemberContext, notice: string | null): Promise<void> {
    await ctx.answerCallbackQuery().catch(() => undefined);
    const view = await accountsView(deps, textsOf(ctx), ctx.member.branchId, ctx.member.branchName);
    const text = notice ? `${notice}\n\n${view.text}` : view.text;
    await ctx
      .editMessageText(text, { parse_mode: "HTML", reply_markup: view.keyboard })
      .catch(() => undefined);
  }

  return composer;
}

/** Runs a change; an account deleted meanwhile (another manager, another chat) is reported, not thrown. */
async function changed(
  ctx: MemberContext,
  change: () => Promise<SavedAccountRecord | undefined>,
): Promise<SavedAccountRecord | undefined> {
  try {
    const account = await change();
    if (!account) await ctx.answerCallbackQuery({ text: textsOf(ctx).t("account-gone") });
    return account;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await ctx.answerCallbackQuery({ text: textsOf(ctx).t("account-gone") });
    return undefined;
  }
}

export async function accountsView(
  deps: BotDependencies,
  texts: Texts,
  branchId: number,
  branchName: string,
) {
  const { t } = texts;
  const accounts = await deps.services.accounts.list(branchId);
  const keyboard = new InlineKeyboard();
  const lines = accounts.map((account, index) => {
    const number = index + 1;
    if (!account.isPrimary) keyboard.text(t("account-make-primary", { number }), `acc:primary:${account.id}`);
    keyboard.text(t("account-delete", { number }), `acc:delete:${account.id}`).row();
    return `${number}. ${describeAccount(account)}${account.isPrimary ? ` ${t("account-primary-mark")}` : ""}`;
  });
  keyboard.text(t("account-add"), "acc:add");
  const body = lines.length === 0 ? t("accounts-empty") : lines.join("\n");
  return { text: `${t("accounts-header", { branch: branchName })}\n\n${body}`, keyboard };
}

/** "Commercial Bank of Ethiopia · 1000123456789 · Main till" (HTML-escaped). */
export function describeAccount(
  account: Pick<SavedAccountRecord, "bank" | "accountNumber" | "label">,
): string {
  return escapeHtml(accountName(account));
}

/** The same, as plain text (translations escape their variables themselves). */
export function accountName(account: Pick<SavedAccountRecord, "bank" | "accountNumber" | "label">): string {
  return `${bankName(account.bank as BankCode)} · ${account.accountNumber} · ${account.label}`;
}
