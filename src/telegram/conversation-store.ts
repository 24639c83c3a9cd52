import type { EntityManager } from "@mikro-orm/postgresql";
import { BotConversationSchema } from "../db/entities/index.js";

/**
 * The state of the bot's conversations (questions waiting on an answer) by key, in PostgreSQL (table
 * bot_conversations), so a question asked before a restart, or by another instance, is still answered
 * correctly. The state is opaque here: the bot's conversation plugin owns its shape.
 */
export interface ConversationStore {
  read(key: string): Promise<unknown>;
  write(key: string, state: object): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A store on the given EntityManager source; each call forks its own (`fork` returns a fresh one). */
export function createConversationStore(fork: () => EntityManager): ConversationStore {
  return {
    async read(key) {
      const row = await fork().findOne(BotConversationSchema, { key });
      return row ? row.state : undefined;
    },
    async write(key, state) {
      await fork().upsert(BotConversationSchema, { key, state, updatedAt: new Date() });
    },
    async delete(key) {
      await fork().nativeDelete(BotConversationSchema, { key });
    },
  };
}
