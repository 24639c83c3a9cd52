import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import { isManager, type Role } from "../src/auth/roles.js";

const EVERYONE: BotCommand[] = [
  { command: "help", description: "How to check a payment" },
  { command: "recent", description: "Your latest verifications" },
  { command: "banks", description: "The banks I can check" },
  { command: "cancel", description: "Stop the current question" },
  { command: "leave", description: "Leave your branch" },
];

const MANAGERS: BotCommand[] = [
  { command: "history", description: "This branch's verifications" },
  { command: "accounts", description: "The branch's receiving accounts" },
  { command: "invite", description: "Invite a cashier or manager" },
  ...EVERYONE,
];

/** The command menu everyone sees. */
export function setDefaultCommands(api: Api): Promise<true> {
  return api.setMyCommands(EVERYONE);
}

/** A member's own menu: managers and admins see their commands too. */
export async function setMemberCommands(api: Api, chatId: number, role: Role): Promise<void> {
  const scope = { type: "chat", chat_id: chatId } as const;
  if (isManager(role)) await api.setMyCommands(MANAGERS, { scope });
  else await api.deleteMyCommands({ scope });
}

/** After /leave the member sees the default menu again. */
export async function clearMemberCommands(api: Api, chatId: number): Promise<void> {
  await api.deleteMyCommands({ scope: { type: "chat", chat_id: chatId } });
}
