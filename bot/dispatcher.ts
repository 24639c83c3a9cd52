import type { Update } from "grammy/types";
import type { Logger } from "../src/logger.js";
import type { BotUpdateType, Metrics } from "../src/metrics/registry.js";

/**
 * Runs updates concurrently across chats and strictly in order within a chat (a cashier's answer must
 * reach the question it answers), with at most `concurrency` handlers at once.
 */
export class UpdateDispatcher {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #waiting: Array<() => void> = [];
  readonly #all = new Set<Promise<void>>();
  #running = 0;

  constructor(
    private readonly handle: (update: Update) => Promise<void>,
    private readonly concurrency: number,
    private readonly logger: Logger,
    /** Counts updates by type when given. */
    private readonly metrics?: Metrics,
  ) {}

  /** Updates accepted and not yet finished. */
  get pending(): number {
    return this.#all.size;
  }

  /** Resolves once the update is handled; failures are logged here, never thrown. */
  dispatch(update: Update): Promise<void> {
    this.metrics?.botUpdates.inc({ type: updateType(update) });
    const key = chatKey(update);
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const done = previous.then(() => this.#run(update));
    this.#tails.set(key, done);
    this.#all.add(done);
    void done.finally(() => {
      this.#all.delete(done);
      if (this.#tails.get(key) === done) this.#tails.delete(key);
    });
    return done;
  }

  /** Waits while `limit` or more updates are pending: polling stops fetching when handlers fall behind. */
  async belowLimit(limit: number): Promise<void> {
    while (this.#all.size >= limit) await Promise.race([...this.#all]);
  }

  /** Waits until every accepted update is handled, or `timeoutMs` passes. */
  async idle(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all([...this.#all]), timeout]);
    clearTimeout(timer);
  }

  async #run(update: Update): Promise<void> {
    // A finishing handler hands its slot straight to the next waiter, so the limit is never overshot.
    if (this.#running >= this.concurrency) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running += 1;
    try {
      await this.handle(update);
    } catch (error) {
      this.logger.error({ err: error, updateId: update.update_id }, "bot update failed");
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}

function updateType(update: Update): BotUpdateType {
  if (update.message) return "message";
  if (update.callback_query) return "callback_query";
  return "other";
}

/**
 * The chat an update belongs to; updates without one are not ordered against anything. In a group each
 * member's messages are ordered on their own: one cashier's photo being read must not hold up another's.
 */
function chatKey(update: Update): string {
  const message = update.message ?? update.edited_message;
  if (message && message.chat.type !== "private" && message.from)
    return `chat:${message.chat.id}:${message.from.id}`;
  const chat =
    update.message?.chat.id ??
    update.edited_message?.chat.id ??
    update.callback_query?.message?.chat.id ??
    update.callback_query?.from.id ??
    update.my_chat_member?.chat.id ??
    update.chat_member?.chat.id;
  return chat === undefined ? `update:${update.update_id}` : `chat:${chat}`;
}
