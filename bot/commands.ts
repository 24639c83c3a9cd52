import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import { isManager, type Role } from "../src/auth/roles.js";
import { LOCALES, type Locale, textsFor } from "./i18n.js";

export const EVERYONE_COMMANDS = ["help", "recent", "banks", "language", "cancel", "leave"] as const;
export const MANAGER_COMMANDS = [
  "history",
  "accounts",
  "invite",
  "settings",
  "alerts",
  "summary",
  "export",
  ...EVERYONE_COMMANDS,
] as const;
/** What a group's menu offers (to everyone there; only managers' are obeyed). */
export const GROUP_COMMANDS = ["link", "unlink"] as const;

function menu(commands: readonly string[], locale: Locale): BotCommand[] {
  const { t } = textsFor(locale);
  return commands.map((command) => ({ command, description: t(`command-${command}`) }));
}

/** The command menu everyone sees: English by default, Amharic for Telegram apps set to Amharic. */
export async function setDefaultCommands(api: Api): Promise<void> {
  const groups = { scope: { type: "all_group_chats" } } as const;
  await api.setMyCommands(menu(EVERYONE_COMMANDS, "en"));
  await api.setMyCommands(menu(GROUP_COMMANDS, "en"), groups);
  for (const locale of LOCALES.filter((other) => other !== "en")) {
    await api.setMyCommands(menu(EVERYONE_COMMANDS, locale), { language_code: locale });
    await api.setMyCommands(menu(GROUP_COMMANDS, locale), { ...groups, language_code: locale });
  }
}

/**
 * A member's own menu. Managers and admins see their commands too, in the member's language; a member
 * who chose a language with /language gets the menu in it (`chosen`), whatever their app's language.
 */
export async function setMemberCommands(
  api: Api,
  chatId: number,
  role: Role,
  locale: Locale,
  chosen = false,
): Promise<void> {
  const scope = { type: "chat", chat_id: chatId } as const;
  if (isManager(role)) await api.setMyCommands(menu(MANAGER_COMMANDS, locale), { scope });
  else if (chosen) await api.setMyCommands(menu(EVERYONE_COMMANDS, locale), { scope });
  else await api.deleteMyCommands({ scope });
}

/** After /leave the member sees the default menu again. */
export async function clearMemberCommands(api: Api, chatId: number): Promise<void> {
  await api.deleteMyCommands({ scope: { type: "chat", chat_id: chatId } });
}
