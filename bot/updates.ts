/** The update kinds the bot handles; Telegram sends no others. */
export const ALLOWED_UPDATES = ["message", "callback_query"] as const;
