import type { ConversationData, VersionedState, VersionedStateStorage } from "@grammyjs/conversations";
import type { MikroORM } from "@mikro-orm/postgresql";
import { BotConversationSchema } from "../src/db/entities/index.js";

/**
 * Conversation state in PostgreSQL (table bot_conversations), so a question asked before a restart, or by
 * another instance, is still answered correctly. The plugin deletes the row when the conversation ends.
 */
export function conversationStorage(orm: MikroORM): VersionedStateStorage<string, ConversationData> {
  return {
    async read(key) {
      const row = await orm.em.fork().findOne(BotConversationSchema, { key });
      return row ? (row.state as VersionedState<ConversationData>) : undefined;
    },
    async write(key, state) {
      await orm.em.fork().upsert(BotConversationSchema, { key, state, updatedAt: new Date() });
    },
    async delete(key) {
      await orm.em.fork().nativeDelete(BotConversationSchema, { key });
    },
  };
}
