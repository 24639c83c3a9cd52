import type { Role } from "../db/roles.js";

export { ROLES, type Role } from "../db/roles.js";

/** Managers and admins may run manager actions (bulk delete, /history, /accounts, /invite). */
export function isManager(role: Role): boolean {
  return role === "manager" || role === "admin";
}
