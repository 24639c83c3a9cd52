/** The update kinds the bot handles (my_chat_member: it was removed from a group); Telegram sends no others. */
export const ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"] as const;
