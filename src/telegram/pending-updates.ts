import type { EntityManager } from "@mikro-orm/postgresql";
import type { Update } from "grammy/types";
import { BotPendingUpdateSchema } from "../db/entities/index.js";

/**
 * The updates the poller fetched and has not finished (table bot_pending_updates). Only the holder of the
 * polling lock uses it, so what a new poller finds there was left by one that stopped or died.
 */
export interface PendingUpdates {
  /** Keeps the updates; returns those not kept already (a copy Telegram sent again is handled once). */
  keep(updates: readonly Update[]): Promise<Update[]>;
  /** The update is handled: forgotten. */
  done(updateId: number): Promise<void>;
  /** What an earlier poller left unfinished, oldest first. */
  leftBehind(): Promise<Update[]>;
}

export function createPendingUpdates(fork: () => EntityManager): PendingUpdates {
  return {
    async keep(updates) {
      if (updates.length === 0) return [];
      // One JSON parameter: knex would spread an array parameter into a list of them.
      const kept: { update_id: string | number }[] = await fork().execute(
        `insert into bot_pending_updates (update_id, body)
         select (u->>'update_id')::bigint, u from json_array_elements(?::json) as u
         on conflict (update_id) do nothing
         returning update_id`,
        [JSON.stringify(updates)],
      );
      const fresh = new Set(kept.map((row) => Number(row.update_id)));
      return updates.filter((update) => fresh.has(update.update_id));
    },
    async done(updateId) {
      await fork().nativeDelete(BotPendingUpdateSchema, { updateId });
    },
    async leftBehind() {
      const rows = await fork().find(BotPendingUpdateSchema, {}, { orderBy: { updateId: "asc" } });
      return rows.map((row) => row.body as Update);
    },
  };
}
