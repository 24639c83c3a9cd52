import { setTimeout as sleep } from "node:timers/promises";
import { type Bot, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../src/logger.js";
import type { BotContext } from "./context.js";
import type { UpdateDispatcher } from "./dispatcher.js";
import { ALLOWED_UPDATES } from "./updates.js";

const POLL_TIMEOUT_S = 30;
const DRAIN_TIMEOUT_MS = 15_000;

export interface Polling {
  /** Stops fetching, lets handlers in progress finish, and confirms the last update to Telegram. */
  stop(): Promise<void>;
}

/**
 * Long polling that hands updates to the dispatcher instead of awaiting each one as grammY's built-in
 * loop does: chats do not wait for each other. Fetching pauses while too many updates are in progress.
 *
 * Why not @grammyjs/runner (2.0.3, `run` + `sequentialize`): it keeps each chat in order as fast as this
 * does, but its `stop()` resolves while handlers still run and never confirms the updates it fetched (60 of
 * 60 left for the next start), its first batch starts up to 100 handlers whatever the sink's `concurrency`, a
 * 409 (a webhook still set) ends it, its retry pause doubles without a cap, and it has neither webhooks nor
 * the polling lock. Our code for those would wrap all of it and leave to it only the `getUpdates` call below,
 * so the transport stays ours.
 */
export function startPolling(
  bot: Bot<BotContext>,
  dispatcher: UpdateDispatcher,
  options: { concurrency: number; logger: Logger },
): Polling {
  const abort = new AbortController();
  const { signal } = abort;
  let offset = 0;

  const loop = (async () => {
    let failures = 0;
    while (!signal.aborted) {
      let updates: Update[];
      try {
        updates = await bot.api.getUpdates(
          { offset, timeout: POLL_TIMEOUT_S, allowed_updates: ALLOWED_UPDATES },
          // grammY types its signal with the abort-controller shim; Node's own is what it really uses.
          signal as Parameters<typeof bot.api.getUpdates>[1],
        );
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        // A webhook left by an earlier webhook deployment: Telegram refuses getUpdates until it is removed.
        if (isWebhookConflict(error)) await bot.api.deleteWebhook().catch(() => undefined);
        failures += 1;
        options.logger.warn({ err: error, failures }, "telegram getUpdates failed; retrying");
        await sleep(Math.min(30_000, 500 * 2 ** failures), undefined, { signal }).catch(() => undefined);
        continue;
      }
      for (const update of updates) {
        offset = update.update_id + 1;
        void dispatcher.dispatch(update);
      }
      await dispatcher.belowLimit(options.concurrency * 2);
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
      await dispatcher.idle(DRAIN_TIMEOUT_MS);
      // Without this, Telegram would deliver the last batch again to the next start.
      if (offset > 0) await bot.api.getUpdates({ offset, limit: 1, timeout: 0 }).catch(() => undefined);
    },
  };
}

function isWebhookConflict(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 409 && /webhook/i.test(error.description);
}
