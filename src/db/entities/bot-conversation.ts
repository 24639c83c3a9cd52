import { defineEntity, type InferEntity } from "@mikro-orm/core";

/**
 * The state of a bot conversation (a question the bot is waiting on), keyed by chat. Kept in PostgreSQL so
 * a restart or another instance carries on where the cashier left off; the row is deleted when it ends.
 */
export const BotConversationSchema = defineEntity({
  name: "BotConversation",
  tableName: "bot_conversations",
  properties: (p) => ({
    key: p.string().length(100).primary(),
    state: p.json<object>(),
    updatedAt: p.datetime().defaultRaw("now()"),
  }),
});

export type BotConversation = InferEntity<typeof BotConversationSchema>;
