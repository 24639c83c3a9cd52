import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram, textMessage } from "../../fakes/telegram.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { createTenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { firstExample, referenceBody } from "../support/simulator.js";

// What `npm start` runs (tsc's output, started as its start script says), not the sources the other
// tests import: every sandbox bank confirms through it, by reference and by share link, and its bot answers.
const TOKEN = "123456:TEST-TOKEN-0123456789abcdefABCDEF";
let db: TestDatabase;
let telegram: FakeTelegram;
let service: RunningServiceProcess;
let sandboxKey: string;
/** Another branch's, so that a link confirms afresh what the reference confirmed in the first. */
let otherSandboxKey: string;

beforeAll(async () => {
  [db, telegram] = await Promise.all([createTestDatabase(), startFakeTelegram({ token: TOKEN })]);
  const sandbox = async () => {
    const { branchId } = await createTenant(db);
    return (await createApiKey(db.orm.em.fork(), branchId, "cashier", { test: true, label: "Sandbox" })).key;
  };
  [sandboxKey, otherSandboxKey] = await Promise.all([sandbox(), sandbox()]);
  service = await startService({
    databaseUrl: db.url,
    env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: telegram.apiRoot },
  });
});

afterAll(async () => {
  expect(await service?.stop()).toBe(0);
  await telegram?.close();
  await db?.drop();
});

describe("the built service", () => {
  it.each(BANK_CODES)("confirms the %s sandbox receipt by reference", async (code) => {
    const response = await service.request("POST", "/verify", {
      key: sandboxKey,
      json: referenceBody(code, firstExample(code)),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, data: { bank: code } });
  });

  it.each(BANK_CODES.filter((code) => firstExample(code).shareUrl))(
    "confirms the %s sandbox receipt by share link",
    async (code) => {
      const example = firstExample(code);
      const response = await service.request("POST", "/verify", {
        key: otherSandboxKey,
        json: {
          receipt_url: example.shareUrl,
          ...(example.target.account ? { account_number: example.target.account } : {}),
        },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        data: { bank: code, transaction_number: example.reference },
      });
    },
  );

  it("polls the Bot API and answers in the sender's language", async () => {
    expect(await replyTo("hello", "en")).toMatch(/^This bot checks payments for the staff of businesses/);
    expect(await replyTo("ሰላም", "am")).toMatch(/^ይህ ቦት Birrcheckን ለሚጠቀሙ ድርጅቶች ሠራተኞች ክፍያዎችን ያረጋግጣል/);
  });
});

async function replyTo(text: string, languageCode: string): Promise<string> {
  const after = telegram.calls.length;
  telegram.pushUpdate(textMessage({ id: 4_200_000, first_name: "Almaz", language_code: languageCode }, text));
  const reply = await telegram.waitForCall("sendMessage", () => true, { after, timeoutMs: 20_000 });
  return String(reply.payload.text);
}
