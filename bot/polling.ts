import { setTimeout as sleep } from "node:timers/promises";
import { type Bot, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../src/logger.js";
import type { PendingUpdates } from "../src/telegram/pending-updates.js";
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
  options: { concurrency: number; logger: Logger; pending: PendingUpdates },
): Polling {
  const abort = new AbortController();
  const { signal } = abort;
  const { logger, pending } = options;
  let offset = 0;

  // Kept until handled: the next getUpdates acknowledges a batch to Telegram, so a crash after it would
  // lose whatever was not finished. A failed forget only means the update is handled again (replayed).
  const handle = (update: Update) =>
    void dispatcher.dispatch(update).finally(() =>
      pending.done(update.update_id).catch((error: unknown) => {
        logger.warn({ err: error, updateId: update.update_id }, "handled update not forgotten");
      }),
    );

  const loop = (async () => {
    const left = await pending.leftBehind().catch((error: unknown) => {
      logger.warn({ err: error }, "could not read the updates an earlier poller left unfinished");
      return [];
    });
    if (left.length > 0)
      logger.info({ updates: left.length }, "handling updates an earlier poller left unfinished");
    for (const update of left) handle(update);
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
        logger.warn({ err: error, failures }, "telegram getUpdates failed; retrying");
        await sleep(Math.min(30_000, 500 * 2 ** failures), undefined, { signal }).catch(() => undefined);
        continue;
      }
      const fresh = await pending.keep(updates).catch((error: unknown) => {
        // Handled all the same, as before the table existed: only a crash in the next moments loses them.
        logger.warn({ err: error }, "fetched updates not kept");
        return updates;
      });
      for (const update of fresh) handle(update);
      const last = updates.at(-1);
      if (last) offset = last.update_id + 1;
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
