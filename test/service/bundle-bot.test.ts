import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram, textMessage } from "../../fakes/telegram.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type ServiceProcess, startServiceProcess } from "../support/processes.js";

// The bot as `npm start` runs it: the bundle replaces some modules its dependencies load with stand-ins that
// load them on first use (scripts/stand-ins/), among them grammY's HTTP client's URL library and the Deno
// shim of its translations. The bot's own tests run the sources; this one runs the bundle.
const TOKEN = "123456:TEST-TOKEN-0123456789abcdefABCDEF";
let db: TestDatabase;
let telegram: FakeTelegram;
let service: ServiceProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  telegram = await startFakeTelegram({ token: TOKEN });
  service = await startServiceProcess({
    DATABASE_URL: db.url,
    BOOTSTRAP: "false",
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  });
}, 60_000);

afterAll(async () => {
  expect(await service?.stop()).toBe(0);
  await telegram?.close();
  await db?.drop();
});

async function replyTo(text: string, languageCode: string): Promise<string> {
  const before = telegram.callsOf("sendMessage").length;
  telegram.pushUpdate(textMessage({ id: 4_200_000, first_name: "Almaz", language_code: languageCode }, text));
  const until = Date.now() + 20_000;
  while (telegram.callsOf("sendMessage").length === before) {
    if (Date.now() > until) throw new Error(`no reply to ${text}:\n${service.output()}`);
    await new Promise((resume) => setTimeout(resume, 50));
  }
  return String(telegram.callsOf("sendMessage")[before]?.payload.text);
}

describe("the bundled service's bot", () => {
  it("polls the Bot API and answers in the sender's language", async () => {
    expect(await replyTo("hello", "en")).toMatch(/^This bot checks payments for the staff of businesses/);
    expect(await replyTo("ሰላም", "am")).toMatch(/^ይህ ቦት Birrcheckን ለሚጠቀሙ ድርጅቶች ሠራተኞች ክፍያዎችን ያረጋግጣል/);
  });
});
