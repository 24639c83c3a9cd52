import type { ConversationData, VersionedState, VersionedStateStorage } from "@grammyjs/conversations";
import type { ConversationStore } from "../src/telegram/conversation-store.js";

/**
 * The conversations plugin's storage on the service's conversation store (PostgreSQL), so a question asked
 * before a restart, or by another instance, is still answered correctly. The plugin deletes the state when
 * the conversation ends; the state is only ever written here, so what is read back has the plugin's shape.
 */
export function conversationStorage(
  store: ConversationStore,
): VersionedStateStorage<string, ConversationData> {
  return {
    read: async (key) => (await store.read(key)) as VersionedState<ConversationData> | undefined,
    write: (key, state) => store.write(key, state),
    delete: (key) => store.delete(key),
  };
}
