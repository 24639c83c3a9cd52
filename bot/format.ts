/** How the bot writes amounts, dates and user-supplied text in Telegram's HTML parse mode. */

const AMOUNT = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const ADDIS_TIME = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Addis_Ababa",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "ETB 12,500.00"; another currency keeps its own code. */
export function formatAmount(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return "—";
  return `${currency || "ETB"} ${AMOUNT.format(amount)}`;
}

/** "22 Nov 2026, 14:05" in Addis Ababa, whatever zone the date was written in; unparseable text as is. */
export function formatAddisTime(value: Date | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return ADDIS_TIME.format(date);
}

/** Text from banks and people goes into HTML messages escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A name or account as shown, or a dash when the bank did not give one. */
export function orDash(text: string | null | undefined): string {
  return text?.trim() ? escapeHtml(text.trim()) : "—";
}
