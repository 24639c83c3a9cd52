import { readFileSync } from "node:fs";
import path from "node:path";
import { I18n, type I18nFlavor } from "@grammyjs/i18n";
import type { Context, MiddlewareFn } from "grammy";
import { BANK_CATALOGUE } from "../src/banks/catalogue.js";
import { BANK_CODES } from "../src/banks/codes.js";
import { projectFile } from "../src/project-files.js";
import type { BotContext } from "./context.js";
import { escapeHtml, formatAddisTime, formatAmount } from "./format.js";

/** The bot's languages; the first is the default for every other Telegram language. */
export const LOCALES = ["en", "am"] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALES_DIR = projectFile("bot", "locales");

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Telegram's language_code ("am", "en-US", …): Amharic for Amharic, English for everything else. */
export function localeOfTelegram(languageCode: string | undefined): Locale {
  return languageCode?.toLowerCase().split("-")[0] === "am" ? "am" : "en";
}

/** The locale decided for an update, by the middleware below (set before any handler runs). */
const decided = new WeakMap<object, Locale>();

export const i18n = new I18n<Context>({
  defaultLocale: "en",
  // Fluent wraps variables in bidi isolation marks by default; Telegram shows them and tests match text.
  fluentBundleOptions: { useIsolating: false },
  localeNegotiator: (ctx) => localeOf(ctx),
});
for (const locale of LOCALES) i18n.loadLocaleSync(locale, { source: localeSource(locale) });

/** bot/locales/<locale>.ftl */
export function localeFile(locale: Locale): string {
  return path.join(LOCALES_DIR, `${locale}.ftl`);
}

/**
 * A locale's messages as Fluent source: its .ftl file, and in English each bank's `bank-about-<code>`, which
 * is the API's catalogue description (src/banks/catalogue.ts, written there once; am.ftl translates them).
 */
export function localeSource(locale: Locale): string {
  const file = readFileSync(localeFile(locale), "utf8");
  if (locale !== "en") return file;
  const about = BANK_CODES.map(
    (code) => `bank-about-${code} = ${fluentText(escapeHtml(BANK_CATALOGUE[code].description))}`,
  );
  return `${file.trimEnd()}\n${about.join("\n")}\n`;
}

/** One line of plain text as a Fluent pattern: braces would start placeables, so they become literals. */
function fluentText(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[{}]/g, (brace) => `{"${brace}"}`);
}

export type TextVariables = Record<string, string | number>;

/** What handlers write with: translations and locale-aware amounts and dates. */
export interface Texts {
  readonly locale: Locale;
  /** A message of the locale's .ftl file; string variables are HTML-escaped (messages are sent as HTML). */
  t(key: string, variables?: TextVariables): string;
  /** "ETB 12,500.00" / "ብር 12,500.00"; a dash when there is no amount. */
  amount(amount: number | null | undefined, currency: string | null | undefined): string;
  /** "22 Nov 2026, 14:05" / "ኖቬም 22 2026 14:05" in Addis Ababa. */
  date(value: Date | string | null | undefined): string;
}

const texts = new Map<Locale, Texts>(LOCALES.map((locale) => [locale, createTexts(locale)]));

export function textsFor(locale: Locale): Texts {
  return texts.get(locale) ?? createTexts(locale);
}

/** The texts for the sender of this update (the chosen language, else the Telegram app's). */
export function textsOf(ctx: Context): Texts {
  return textsFor(localeOf(ctx));
}

export function localeOf(ctx: Context): Locale {
  return decided.get(ctx) ?? localeOfTelegram(ctx.from?.language_code);
}

/**
 * Decides the language of each update once: the member's choice stored by /language (loaded with the
 * membership, no query of its own), else the Telegram app's language. Then the @grammyjs/i18n middleware
 * (ctx.t, ctx.i18n) follows the same decision.
 */
export function languageMiddleware(): MiddlewareFn<BotContext> {
  const plugin = i18n.middleware();
  return async (ctx, next) => {
    const stored = ctx.member?.language;
    if (isLocale(stored)) decided.set(ctx, stored);
    await plugin(ctx as unknown as Context & I18nFlavor, next);
  };
}

/** Switches the rest of this update to the locale (after /language). */
export function useLocale(ctx: Context, locale: Locale): void {
  decided.set(ctx, locale);
  (ctx as Context & Partial<I18nFlavor>).i18n?.useLocale(locale);
}

function createTexts(locale: Locale): Texts {
  return {
    locale,
    t(key, variables) {
      if (!variables) return i18n.t(locale, key);
      const escaped: Record<string, string> = {};
      // Numbers are passed as text too: Fluent would format them with the locale's grouping.
      for (const [name, value] of Object.entries(variables))
        escaped[name] = typeof value === "string" ? escapeHtml(value) : String(value);
      return i18n.t(locale, key, escaped);
    },
    amount: (amount, currency) => formatAmount(amount, currency, locale),
    date: (value) => formatAddisTime(value, locale),
  };
}
