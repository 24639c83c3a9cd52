/** The bot's conversations (questions it waits on), by the id their state is stored under. */
export const REFERENCE_CONVERSATION = "reference";
export const ACCOUNT_CONVERSATION = "account";
export const ADD_ACCOUNT_CONVERSATION = "add-account";
