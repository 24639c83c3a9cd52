/**
 * The roles of API keys, invite codes and Telegram members, as the database stores them (the entities'
 * enums). Defined here so the entities import nothing above src/db; src/auth/roles.ts re-exports them with
 * what each role may do.
 */
export const ROLES = ["cashier", "manager", "admin"] as const;
export type Role = (typeof ROLES)[number];
