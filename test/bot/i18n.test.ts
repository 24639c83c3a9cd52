import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANAGER_COMMANDS } from "../../bot/commands.js";
import { LOCALES, localeFile, localeOfTelegram, localeSource, textsFor } from "../../bot/i18n.js";
import { type BotApiCall, callbackQuery, type FakeUser, textMessage } from "../../fakes/telegram.js";
import type { Role } from "../../src/auth/roles.js";
import { BANK_CATALOGUE } from "../../src/banks/catalogue.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { TelegramMemberSchema } from "../../src/db/entities/index.js";
import { createInvite } from "../../src/telegram/invites.js";
import { createTenant, type Tenant } from "../support/api.js";
import { type BotHarness, converse, newUser, startBotHarness, waitUntil } from "../support/bot.js";
import { firstExample } from "../support/simulator.js";

const BOT_DIR = path.resolve(import.meta.dirname, "../../bot");

/** The message ids of Fluent source and the variables each one uses. */
function messagesOf(source: string): Map<string, Set<string>> {
  const messages = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of source.split("\n")) {
    const id = /^([a-z][a-z0-9-]*)\s*=/.exec(line);
    if (id?.[1]) {
      current = new Set();
      messages.set(id[1], current);
    } else if (/^\S/.test(line)) current = undefined;
    for (const variable of line.matchAll(/\$([a-z][a-z0-9-]*)/g)) if (variable[1]) current?.add(variable[1]);
  }
  return messages;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("the bot's translation files", () => {
  it("have the same keys in English and Amharic, each with the same variables", async () => {
    const [en, am] = LOCALES.map((locale) => messagesOf(localeSource(locale)));
    expect(en?.size).toBeGreaterThan(100);
    expect([...(am?.keys() ?? [])].sort()).toEqual([...(en?.keys() ?? [])].sort());
    for (const [key, variables] of en ?? []) {
      expect([...(am?.get(key) ?? [])].sort(), key).toEqual([...variables].sort());
    }
  });

  it("have every key the bot's code uses", async () => {
    const en = messagesOf(localeSource("en"));
    const used = new Set<string>();
    for (const file of await sourceFiles(BOT_DIR)) {
      const source = await readFile(file, "utf8");
      for (const call of source.matchAll(/\bt\(\s*"([^"]+)"/g)) if (call[1]) used.add(call[1]);
    }
    // Keys built at run time: one per bank and one per menu command.
    for (const code of BANK_CODES) used.add(`bank-about-${code}`);
    for (const command of MANAGER_COMMANDS) used.add(`command-${command}`);
    expect(used.size).toBeGreaterThan(90);
    expect([...used].filter((key) => !en.has(key))).toEqual([]);
  });

  it("get every variable their messages need from the bot's code (Fluent throws on a missing one)", async () => {
    const en = messagesOf(localeSource("en"));
    const missing: string[] = [];
    let checked = 0;
    for (const file of await sourceFiles(BOT_DIR)) {
      const source = await readFile(file, "utf8");
      for (const call of source.matchAll(/\bt\(\s*"([^"]+)"\s*(?:,\s*\{([^}]*)\})?\s*\)/g)) {
        const [, key = "", object = ""] = call;
        // A spread (card.ts's verifiedBy) is checked by the flow tests instead.
        if (object.includes("...")) continue;
        const given = new Set([...object.matchAll(/([a-zA-Z]+)\s*(?=[:,]|$)/g)].map((name) => name[1]));
        for (const variable of en.get(key) ?? [])
          if (!given.has(variable)) missing.push(`${key}: $${variable}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(missing).toEqual([]);
  });

  it("take each bank's English description from the API's catalogue, with no copy in en.ftl", async () => {
    const file = messagesOf(await readFile(localeFile("en"), "utf8"));
    expect([...file.keys()].filter((key) => key.startsWith("bank-about-"))).toEqual([]);
    const { t } = textsFor("en");
    for (const code of BANK_CODES) expect(t(`bank-about-${code}`)).toBe(BANK_CATALOGUE[code].description);
  });

  it("format amounts and dates for the locale, and escape what people and banks write", () => {
    const en = textsFor("en");
    const am = textsFor("am");
    const date = new Date("2026-11-22T11:05:00Z");
    expect(en.amount(12500, "ETB")).toBe("ETB 12,500.00");
    expect(am.amount(12500, "ETB")).toBe("ብር 12,500.00");
    expect(am.amount(null, "ETB")).toBe("—");
    expect(en.date(date)).toBe("22 Nov 2026, 14:05");
    expect(am.date(date)).toMatch(/^ኖቬም 22 2026.*14:05$/);
    expect(en.t("left", { branch: "<b>A&B</b>" })).toBe(
      "You left &lt;b&gt;A&amp;B&lt;/b&gt;. An invite link brings you back.",
    );
  });

  it("follow the Telegram app's language: Amharic for am, English for anything else", () => {
    expect(localeOfTelegram("am")).toBe("am");
    expect(localeOfTelegram("am-ET")).toBe("am");
    expect(localeOfTelegram("en-US")).toBe("en");
    expect(localeOfTelegram("ru")).toBe("en");
    expect(localeOfTelegram(undefined)).toBe("en");
  });
});

const WELCOME = { en: /^Welcome! You joined/, am: /^እንኳን ደህና መጡ!/ };

describe("the bot in English and Amharic", () => {
  let harness: BotHarness;
  let tenant: Tenant;
  beforeAll(async () => {
    harness = await startBotHarness("polling");
    tenant = await createTenant(harness.db);
  });
  afterAll(() => harness?.close());

  function user(name: string, language_code?: string): FakeUser {
    return { ...newUser(name), ...(language_code ? { language_code } : {}) };
  }

  async function joined(name: string, role: Role, language: "en" | "am"): Promise<FakeUser> {
    const member = user(name, language === "am" ? "am" : "en");
    const invite = await createInvite(harness.db.orm.em.fork(), tenant.branchId, role);
    await converse(harness, member, textMessage(member, `/start ${invite.code}`), WELCOME[language]);
    return member;
  }

  async function press(member: FakeUser, call: BotApiCall, data: string, pattern: RegExp) {
    await waitUntil(() => call.result !== undefined, "the fake Bot API's answer");
    const message = { message_id: (call.result as { message_id: number }).message_id, chat_id: member.id };
    return converse(harness, member, callbackQuery(member, data, message), pattern);
  }

  it("sets the default command menu in English and in Amharic", () => {
    const menus = harness.telegram.callsOf("setMyCommands").filter((call) => !call.payload.scope);
    const english = menus.find((call) => call.payload.language_code === undefined);
    const amharic = menus.find((call) => call.payload.language_code === "am");
    expect(english?.payload.commands).toContainEqual({
      command: "help",
      description: "How to check a payment",
    });
    expect(amharic?.payload.commands).toContainEqual({
      command: "help",
      description: "ክፍያን እንዴት ማረጋገጥ እንደሚቻል",
    });
    expect(amharic?.payload.commands).toContainEqual(expect.objectContaining({ command: "language" }));
  });

  it("explains how to join to an outsider in their app's language", async () => {
    const outsider = user("Outsider", "am");
    await converse(harness, outsider, textMessage(outsider, "hello"), /^ይህ ቦት Birrcheckን/);
    const english = user("Outsider", "fr");
    await converse(harness, english, textMessage(english, "hello"), /^This bot checks payments/);
  });

  it("welcomes a joining member in their language, role included, with the manager menu in Amharic", async () => {
    const amharic = await joined("Abebe", "manager", "am");
    const welcome = harness.telegram
      .callsOf("sendMessage")
      .filter((call) => call.payload.chat_id === amharic.id)
      .at(-1);
    expect(welcome?.payload.text).toContain("እንደ ሥራ አስኪያጅ ተቀላቅለዋል");
    const menu = harness.telegram
      .callsOf("setMyCommands")
      .find((call) => JSON.stringify(call.payload.scope ?? "").includes(String(amharic.id)));
    expect(menu?.payload.commands).toContainEqual({
      command: "history",
      description: "የዚህ ቅርንጫፍ ማረጋገጫዎች",
    });
    await joined("Almaz", "cashier", "en");
  });

  it.each([
    // A bank each, so the second language's receipt is not a duplicate of the first's.
    [
      "en",
      "telebirr",
      // The simulator's receipts are months old: the branch's default 24-hour limit flags them.
      /^✅ <b>Payment confirmed<\/b>\n⚠️ <b>Paid \d+ days ago<\/b>, [^\n]+\nAmount: <b>ETB [\d,]+\.\d\d<\/b>\nPayer: /,
      /Date: \d{1,2} [A-Z][a-z]{2} \d{4}, /,
    ],
    [
      "am",
      "mpesa",
      /^✅ <b>ክፍያው ተረጋግጧል<\/b>\n⚠️ <b>የተከፈለው ከ\d+ ቀን በፊት ነው<\/b>[^\n]+\nመጠን፦ <b>ብር [\d,]+\.\d\d<\/b>\nከፋይ፦ /,
      /ቀን፦ \S+ \d{1,2} \d{4}/,
    ],
  ] as const)("verifies a receipt link and shows the card (%s)", async (language, bank, card, date) => {
    const cashier = await joined(`Cashier ${language}`, "cashier", language);
    const link = firstExample(bank).shareUrl;
    if (!link) throw new Error(`no ${bank} link`);
    const reply = await converse(harness, cashier, textMessage(cashier, link), /^✅/);
    expect(reply.payload.text).toMatch(card);
    expect(reply.payload.text).toMatch(date);
    // The same receipt again: already verified, by whom, in the member's language.
    const again = await converse(harness, cashier, textMessage(cashier, link), /^⚠️/);
    expect(again.payload.text).toContain(language === "en" ? "This payment was verified on" : "ይህ ክፍያ");
    expect(again.payload.text).toContain(language === "en" ? "(Telegram)" : "(ቴሌግራም)");
  });

  it.each([
    [
      "en",
      /^Which bank is <code>FT26140P01YB<\/code> from\?$/,
      /^Commercial Bank of Ethiopia needs the account that received the money\./,
    ],
    [
      "am",
      /^<code>FT26140P01YB<\/code> የየትኛው ባንክ ነው\?$/,
      /^Commercial Bank of Ethiopia ገንዘቡን የተቀበለውን ሒሳብ ይፈልጋል።/,
    ],
  ] as const)("asks which bank a bare reference is from (%s)", async (language, question, next) => {
    const cashier = await joined(`Asker ${language}`, "cashier", language);
    const asked = await converse(harness, cashier, textMessage(cashier, "FT26140P01YB"), question);
    const markup = asked.payload.reply_markup as {
      inline_keyboard: Array<Array<{ text: string; callback_data: string }>>;
    };
    const cbe = markup.inline_keyboard.flat().find((b) => b.text === "Commercial Bank of Ethiopia");
    if (!cbe) throw new Error("no CBE button");
    await converse(
      harness,
      cashier,
      callbackQuery(cashier, cbe.callback_data, {
        message_id: (asked.result as { message_id: number }).message_id,
        chat_id: cashier.id,
      }),
      next,
    );
    await converse(
      harness,
      cashier,
      textMessage(cashier, "/cancel"),
      language === "en" ? /^Cancelled\.$/ : /^ተሰርዟል።$/,
    );
  });

  it.each([
    ["en", /^This command is for managers\.$/],
    ["am", /^ይህ ትዕዛዝ ለሥራ አስኪያጆች ብቻ ነው።$/],
  ] as const)("refuses /history to a cashier (%s)", async (language, refusal) => {
    const cashier = await joined(`Refused ${language}`, "cashier", language);
    await converse(harness, cashier, textMessage(cashier, "/history"), refusal);
  });

  it("switches with /language, remembers the choice in the database, and switches back", async () => {
    const cashier = await joined("Switcher", "cashier", "en");
    const question = await converse(
      harness,
      cashier,
      textMessage(cashier, "/language"),
      /^Choose the bot's language:$/,
    );
    const markup = question.payload.reply_markup as { inline_keyboard: Array<Array<{ text: string }>> };
    expect(markup.inline_keyboard.flat().map((b) => b.text)).toEqual(["English", "አማርኛ"]);
    await press(cashier, question, "lang:am", /^ቦቱ አሁን በአማርኛ ይናገራል።$/);
    const stored = await harness.db.orm.em.fork().findOneOrFail(TelegramMemberSchema, {
      telegramUserId: String(cashier.id),
    });
    expect(stored.language).toBe("am");
    // The Telegram app still says English; the choice wins, in this menu and in later messages.
    const menu = harness.telegram
      .callsOf("setMyCommands")
      .filter((call) => JSON.stringify(call.payload.scope ?? "").includes(String(cashier.id)))
      .at(-1);
    expect(menu?.payload.commands).toContainEqual({ command: "recent", description: "የቅርብ ጊዜ ማረጋገጫዎችዎ" });
    await converse(harness, cashier, textMessage(cashier, "/help"), /^የደንበኛውን የባንክ SMS/);
    await converse(harness, cashier, textMessage(cashier, "/recent"), /^<b>የቅርብ ጊዜ ማረጋገጫዎችዎ<\/b>/);

    const back = await converse(harness, cashier, textMessage(cashier, "/language"), /^የቦቱን ቋንቋ ይምረጡ፦$/);
    await press(cashier, back, "lang:en", /^The bot now speaks English\.$/);
    await converse(harness, cashier, textMessage(cashier, "/help"), /^Forward me the customer's bank SMS/);
  });
});
