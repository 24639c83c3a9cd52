import { conversations, createConversation } from "@grammyjs/conversations";
import { hydrateFiles } from "@grammyjs/files";
import { Bot, type Context, type NextFunction } from "grammy";
import type { TelegramSettings } from "../src/config.js";
import { alertCommands } from "./alerts.js";
import type { BotContext, BotDependencies } from "./context.js";
import {
  ACCOUNT_CONVERSATION,
  ADD_ACCOUNT_CONVERSATION,
  REFERENCE_CONVERSATION,
} from "./conversation-ids.js";
import { describeFailure } from "./failures.js";
import { accountsCommands } from "./handlers/accounts.js";
import { addAccountConversation } from "./handlers/add-account.js";
import { exportCommand } from "./handlers/export.js";
import { generalCommands } from "./handlers/general.js";
import { groupChats } from "./handlers/groups.js";
import { historyCommands } from "./handlers/history.js";
import { inviteCommand } from "./handlers/invite.js";
import { languageCommand } from "./handlers/language.js";
import { loadMember, membership } from "./handlers/membership.js";
import { receiptHandlers } from "./handlers/receipts.js";
import { accountConversation, referenceConversation } from "./handlers/reference.js";
import { settingsCommands } from "./handlers/settings.js";
import { summaryCommand } from "./handlers/summary.js";
import { languageMiddleware, textsOf } from "./i18n.js";
import { rateLimitPerUser } from "./rate-limit.js";
import { retryFloodLimits } from "./retry.js";
import { conversationStorage } from "./storage.js";

/**
 * The bot's middleware, in the order an update meets it: errors, the rate limit, group chats (which stop
 * there), the member (with its language), the language, joining (outsiders stop there), conversations (/cancel before them, so it
 * always works), commands, buttons, then receipts.
 */
export function createBot(
  settings: TelegramSettings,
  deps: BotDependencies,
  /** Asks for a check of the daily summaries now (a manager just set one). */
  summariesDue: () => void,
): Bot<BotContext> {
  const bot = new Bot<BotContext>(settings.token, { client: { apiRoot: settings.apiRoot } });
  bot.api.config.use(hydrateFiles(settings.token, { apiRoot: settings.apiRoot }));
  bot.api.config.use(retryFloodLimits);
  // Conversations build their own Api per update, without bot.api's transformers (stack.md §5).
  const conversationPlugins = [
    async (ctx: Context, next: NextFunction) => {
      ctx.api.config.use(retryFloodLimits);
      await next();
    },
  ];

  bot.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const texts = textsOf(ctx);
      const text = describeFailure(texts, error, deps.logger);
      if (ctx.callbackQuery)
        await ctx.answerCallbackQuery({ text: texts.t("internal-error") }).catch(() => undefined);
      else if (ctx.chatId !== undefined) await ctx.reply(text, { parse_mode: "HTML" }).catch(() => undefined);
    }
  });
  if (settings.ratePerMinute > 0) bot.use(rateLimitPerUser(settings.ratePerMinute));
  bot.use(groupChats(deps));
  bot.use(loadMember(deps));
  bot.use(languageMiddleware());
  bot.use(membership(deps));
  bot.use(
    conversations({
      // Version 2: the conversations read the member's language first; older logs would replay wrongly.
      storage: { type: "key", version: 2, adapter: conversationStorage(deps.services.conversations) },
    }),
  );
  bot.command("cancel", async (ctx) => {
    const active = Object.keys(ctx.conversation.active()).length > 0;
    await ctx.conversation.exitAll();
    const { t } = textsOf(ctx);
    await ctx.reply(active ? t("cancelled") : t("nothing-to-cancel"));
  });
  for (const [id, builder] of [
    [REFERENCE_CONVERSATION, referenceConversation],
    [ACCOUNT_CONVERSATION, accountConversation],
    [ADD_ACCOUNT_CONVERSATION, addAccountConversation],
  ] as const) {
    bot.use(createConversation(builder(deps), { id, plugins: conversationPlugins }));
  }

  bot.use(generalCommands(deps));
  bot.use(languageCommand(deps));
  bot.use(historyCommands(deps));
  bot.use(accountsCommands(deps));
  bot.use(inviteCommand(deps));
  bot.use(settingsCommands(deps));
  bot.use(alertCommands(deps));
  bot.use(summaryCommand(deps, summariesDue));
  bot.use(exportCommand(deps));
  bot.use(receiptHandlers(deps));
  // A button of a question that is no longer open (answered, cancelled, or replaced by a new receipt).
  bot.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: textsOf(ctx).t("question-expired") }));
  return bot;
}
