import { Composer, InlineKeyboard } from "grammy";
import { BANK_CATALOGUE } from "../../src/banks/catalogue.js";
import type { BankCode } from "../../src/banks/codes.js";
import type { VerificationRecord } from "../../src/db/verification-record.js";
import { PERIODS, type Period } from "../../src/history/verifications.js";
import { type BotContext, type BotDependencies, isMember } from "../context.js";
import { escapeHtml } from "../format.js";
import { type Texts, textsOf } from "../i18n.js";
import { callerOf } from "../verify-in-chat.js";
import { allowedManager } from "./manager.js";

const PAGE_SIZE = 10;
const RECENT_COUNT = 10;
const MAX_PAGE = 9_999;

interface HistoryView {
  period: Period | null;
  success: boolean | null;
  page: number;
}

const CALLBACK = new RegExp(`^hist:(${PERIODS.join("|")}|all):(ok|failed|all):(\\d{1,4})$`);

/**
 * /history [period] [ok|failed]: the branch's verifications, newest first, paged with buttons (managers);
 * /recent: the member's own last results (everyone).
 */
export function historyCommands(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const members = composer.filter(isMember);

  members.command("history", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const texts = textsOf(ctx);
    const view = parseArguments(ctx.match);
    if (!view) {
      await ctx.reply(texts.t("history-usage"));
      return;
    }
    const page = await renderPage(deps, texts, ctx.member.branchId, view);
    await ctx.reply(page.text, { parse_mode: "HTML", reply_markup: page.keyboard });
  });

  // Every member's own latest results, cashiers included.
  members.command("recent", async (ctx) => {
    const source = callerOf(ctx.member).source;
    const rows = await deps.services.history.recentBySource(ctx.member.branchId, source, RECENT_COUNT);
    const texts = textsOf(ctx);
    const body = rows.length === 0 ? texts.t("recent-empty") : rows.map((row) => line(texts, row)).join("\n");
    await ctx.reply(`${texts.t("recent-header")}\n\n${body}`, { parse_mode: "HTML" });
  });

  members.callbackQuery(CALLBACK, async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const [, period, filter, page] = ctx.match;
    const view: HistoryView = {
      period: period === "all" ? null : (period as Period),
      success: filter === "all" ? null : filter === "ok",
      page: Math.min(Number(page), MAX_PAGE),
    };
    const rendered = await renderPage(deps, textsOf(ctx), ctx.member.branchId, view);
    await ctx.answerCallbackQuery();
    await ctx
      .editMessageText(rendered.text, { parse_mode: "HTML", reply_markup: rendered.keyboard })
      .catch(() => undefined);
  });

  return composer;
}

function parseArguments(text: string): HistoryView | null {
  const view: HistoryView = { period: null, success: null, page: 0 };
  for (const word of text.trim().toLowerCase().split(/\s+/).filter(Boolean)) {
    if ((PERIODS as readonly string[]).includes(word) && view.period === null) view.period = word as Period;
    else if ((word === "ok" || word === "failed") && view.success === null) view.success = word === "ok";
    else return null;
  }
  return view;
}

async function renderPage(deps: BotDependencies, texts: Texts, branchId: number, view: HistoryView) {
  const { t } = texts;
  const rows = await deps.services.history.list(branchId, {
    limit: PAGE_SIZE + 1,
    offset: view.page * PAGE_SIZE,
    ...(view.period ? { period: view.period } : {}),
    ...(view.success === null ? {} : { success: view.success }),
  });
  const shown = rows.slice(0, PAGE_SIZE);
  const filters = [
    view.period ?? t("history-all-time"),
    view.success === null ? null : view.success ? t("history-ok") : t("history-failed"),
  ];
  const header = t("history-header", { filters: filters.filter(Boolean).join(", "), page: view.page + 1 });
  const text =
    shown.length === 0
      ? `${header}\n\n${t("history-empty")}`
      : [header, "", ...shown.map((row) => line(texts, row))].join("\n");

  const data = (page: number) =>
    `hist:${view.period ?? "all"}:${view.success === null ? "all" : view.success ? "ok" : "failed"}:${page}`;
  const keyboard = new InlineKeyboard();
  if (view.page > 0) keyboard.text(t("history-newer"), data(view.page - 1));
  if (rows.length > PAGE_SIZE && view.page < MAX_PAGE) keyboard.text(t("history-older"), data(view.page + 1));
  return { text, keyboard };
}

function line(texts: Texts, record: VerificationRecord): string {
  const bank = BANK_CATALOGUE[record.bank as BankCode]?.name ?? record.bank;
  const outcome = record.success ? "✅" : "❌";
  const parts = [
    `${outcome} ${texts.date(record.createdAt)}`,
    escapeHtml(bank),
    record.amount === null ? null : texts.amount(record.amount, record.currency),
    `<code>${escapeHtml(record.transactionNumber)}</code>`,
    escapeHtml(record.sourceLabel),
  ];
  const why = record.success ? null : record.message;
  return [parts.filter(Boolean).join(" · "), ...(why ? [`   ${escapeHtml(why)}`] : [])].join("\n");
}
