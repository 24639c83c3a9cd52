import type { Texts } from "./i18n.js";

/** `/settings stale 6h|2d|90m|off`: the limit in minutes, null for off; undefined when not understood. */
export function parseStaleLimit(word: string | undefined): number | null | undefined {
  const value = word?.trim().toLowerCase();
  if (value === "off") return null;
  const match = /^(\d{1,4})(m|h|d)$/.exec(value ?? "");
  if (!match) return undefined;
  const minutes = Number(match[1]) * { m: 1, h: 60, d: 1440 }[match[2] as "m" | "h" | "d"];
  // From a minute to 90 days: beyond that nothing would be flagged that a cashier could still act on.
  return minutes >= 1 && minutes <= 90 * 1440 ? minutes : undefined;
}

/** How many minutes ago the bank says the payment was made, when that is past the branch's limit. */
export function staleBy(
  transactionDate: string | null,
  limitMinutes: number | null,
  now = new Date(),
): number | null {
  if (limitMinutes === null || !transactionDate) return null;
  const age = Math.floor((now.getTime() - new Date(transactionDate).getTime()) / 60_000);
  return Number.isFinite(age) && age > limitMinutes ? age : null;
}

/** "90 minutes", "5 hours", "3 days" in the member's language: days from 48 hours, hours from 90 minutes. */
export function durationText(texts: Texts, minutes: number): string {
  if (minutes >= 48 * 60) return texts.t("duration-days", { n: Math.floor(minutes / 1440) });
  if (minutes >= 90) return texts.t("duration-hours", { n: Math.floor(minutes / 60) });
  return texts.t("duration-minutes", { n: minutes });
}
