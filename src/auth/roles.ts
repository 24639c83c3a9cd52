export const ROLES = ["cashier", "manager", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Managers and admins may run manager actions (bulk delete, /history, /accounts, /invite). */
export function isManager(role: Role): boolean {
  return role === "manager" || role === "admin";
}
