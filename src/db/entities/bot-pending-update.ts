import { defineEntity, type InferEntity } from "@mikro-orm/core";

/**
 * A Telegram update the poller fetched and has not finished handling. Written before the next getUpdates
 * acknowledges it to Telegram and deleted once handled, so an update a crash interrupted is handled by the
 * next poller instead of being lost.
 */
export const BotPendingUpdateSchema = defineEntity({
  name: "BotPendingUpdate",
  tableName: "bot_pending_updates",
  properties: (p) => ({
    updateId: p.bigint("number").primary().autoincrement(false),
    /** The update as Telegram sent it. */
    body: p.json<object>(),
    receivedAt: p.datetime().defaultRaw("now()"),
  }),
});

export type BotPendingUpdate = InferEntity<typeof BotPendingUpdateSchema>;
