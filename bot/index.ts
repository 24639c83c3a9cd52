import { setTimeout as sleep } from "node:timers/promises";
import type { Bot } from "grammy";
import type { Middleware } from "koa";
import type { TelegramSettings } from "../src/config.js";
import { withoutSecretInErrors } from "../src/logger.js";
import { setDefaultCommands } from "./commands.js";
import type { BotContext, BotDependencies } from "./context.js";
import { createBot } from "./create-bot.js";
import { type DailySummaries, startDailySummaries } from "./daily-summaries.js";
import { UpdateDispatcher } from "./dispatcher.js";
import { startPolling } from "./polling.js";
import { createRetryStore } from "./retries.js";
import { ALLOWED_UPDATES } from "./updates.js";
import { webhookRoute } from "./webhook.js";

export type { BotDependencies } from "./context.js";

export interface TelegramBot {
  bot: Bot<BotContext>;
  /** The webhook route for the API's Koa app (webhook mode), else null. */
  webhook: Middleware | null;
  /**
   * Connects in the background: getMe until Telegram answers, the command menu, then polling or
   * setWebhook. It never throws and never holds up the REST API; failures are logged and retried.
   */
  start(): void;
  stop(): Promise<void>;
}

export function createTelegramBot(
  settings: TelegramSettings,
  given: Omit<BotDependencies, "retries">,
): TelegramBot {
  const deps = {
    ...given,
    logger: withoutSecretInErrors(given.logger, settings.token),
    retries: createRetryStore(),
  };
  let summaries: DailySummaries | null = null;
  const bot = createBot(settings, deps, () => void summaries?.check());
  const dispatcher = new UpdateDispatcher(
    (update) => bot.handleUpdate(update),
    settings.concurrency,
    deps.logger,
    deps.metrics,
  );
  const abort = new AbortController();
  const stopped = new Promise<void>((resolve) => abort.signal.addEventListener("abort", () => resolve()));
  let connecting: Promise<void> | null = null;
  const { mode } = settings;

  /** Retries an API step with growing pauses until it works or the bot stops. */
  async function persist(step: string, action: () => Promise<unknown>): Promise<boolean> {
    for (let attempt = 1; !abort.signal.aborted; attempt += 1) {
      try {
        await action();
        return true;
      } catch (error) {
        deps.logger.warn({ err: error, attempt }, `telegram ${step} failed; retrying`);
        await sleep(Math.min(30_000, 500 * 2 ** attempt), undefined, { signal: abort.signal }).catch(
          () => undefined,
        );
      }
    }
    return false;
  }

  async function connect(): Promise<void> {
    if (!(await persist("getMe", async () => (bot.botInfo = await bot.api.getMe())))) return;
    deps.logger.info({ username: bot.botInfo.username, mode: mode.kind }, "telegram bot connected");
    await setDefaultCommands(bot.api).catch((error: unknown) =>
      deps.logger.warn({ err: error }, "could not set the bot's commands"),
    );
    if (mode.kind === "webhook") {
      await persist("setWebhook", () =>
        bot.api.setWebhook(mode.url, { secret_token: mode.secret, allowed_updates: [...ALLOWED_UPDATES] }),
      );
      return;
    }
    await pollWhileLockHeld(`birrcheck:telegram-polling:${bot.botInfo.id}`);
  }

  /**
   * Telegram hands updates to one getUpdates caller at a time, so with several instances on one database
   * only the holder of a lock polls; the others serve the API and take over when it goes away.
   */
  async function pollWhileLockHeld(lockName: string): Promise<void> {
    let waitingLogged = false;
    while (!abort.signal.aborted) {
      const lock = await deps.pollingLock.take(lockName).catch((error: unknown) => {
        deps.logger.warn({ err: error }, "could not ask the database for the polling lock");
        return null;
      });
      if (!lock) {
        if (!waitingLogged) deps.logger.info("another instance polls Telegram; this one waits to take over");
        waitingLogged = true;
        await sleep(deps.pollingLock.retryMs, undefined, { signal: abort.signal }).catch(() => undefined);
        continue;
      }
      waitingLogged = false;
      deps.logger.info("polling Telegram");
      const polling = startPolling(bot, dispatcher, {
        concurrency: settings.concurrency,
        logger: deps.logger,
        pending: deps.services.pendingUpdates,
      });
      await Promise.race([lock.lost, stopped]);
      await polling.stop();
      await lock.release();
      if (!abort.signal.aborted) deps.logger.warn("lost the polling lock");
    }
  }

  return {
    bot,
    webhook:
      mode.kind === "webhook"
        ? webhookRoute({ path: new URL(mode.url).pathname, secret: mode.secret, bot, dispatcher })
        : null,
    start() {
      connecting ??= connect().catch((error: unknown) =>
        deps.logger.error({ err: error }, "telegram bot failed to start"),
      );
      if (!summaries) {
        summaries = startDailySummaries(bot.api, deps);
        void summaries.check();
      }
    },
    async stop() {
      abort.abort();
      await Promise.all([connecting, summaries?.stop()]);
      await dispatcher.idle(15_000);
    },
  };
}
