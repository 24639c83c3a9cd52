/** How the bot writes amounts, dates and user-supplied text in Telegram's HTML parse mode. */

/** The bot's languages as Intl locales. Node's full ICU has Amharic ("ኖቬም", "ብር"); Gregorian dates only. */
const INTL_LOCALES = { en: "en-GB", am: "am-ET" } as const;
export type FormatLocale = keyof typeof INTL_LOCALES;

// Formatters are made on first use: the first ones page in ICU's locale and time-zone data (~6 MB of a
// worker's RSS), which a worker that formats no bot message never needs.
let plainAmount: Intl.NumberFormat | undefined;
const amharicAmounts = new Map<string, Intl.NumberFormat>();
const addisTimes = new Map<FormatLocale, Intl.DateTimeFormat>();

function amountFormat(): Intl.NumberFormat {
  plainAmount ??= new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return plainAmount;
}

function addisTime(locale: FormatLocale): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(INTL_LOCALES[locale], {
    timeZone: "Africa/Addis_Ababa",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
}

/**
 * "ETB 12,500.00" in English; another currency keeps its own code. In Amharic the locale's currency
 * format: "ብር 12,500.00".
 */
export function formatAmount(
  amount: number | null | undefined,
  currency: string | null | undefined,
  locale: FormatLocale = "en",
): string {
  if (amount === null || amount === undefined) return "—";
  const code = currency || "ETB";
  if (locale === "en") return `${code} ${amountFormat().format(amount)}`;
  let format = amharicAmounts.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat(INTL_LOCALES.am, { style: "currency", currency: code });
    } catch {
      // Not an ISO currency code: written like the English, code first.
      return `${code} ${amountFormat().format(amount)}`;
    }
    amharicAmounts.set(code, format);
  }
  // ICU puts a no-break space after "ብር"; a plain one, as in the English.
  return format.format(amount).replace(/\u00a0/g, " ");
}

/** "22 Nov 2026, 14:05" in Addis Ababa, whatever zone the date was written in; unparseable text as is. */
export function formatAddisTime(
  value: Date | string | null | undefined,
  locale: FormatLocale = "en",
): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  let format = addisTimes.get(locale);
  if (!format) {
    format = addisTime(locale);
    addisTimes.set(locale, format);
  }
  return format.format(date);
}

/** Text from banks and people goes into HTML messages escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A name or account as shown, or a dash when the bank did not give one. */
export function orDash(text: string | null | undefined): string {
  return text?.trim() ? escapeHtml(text.trim()) : "—";
}
