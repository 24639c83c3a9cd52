import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { callbackQuery, textMessage } from "../../fakes/telegram.js";
import { type RunningService, startService } from "../../src/compose.js";
import { createLogger } from "../../src/logger.js";
import {
  type BotHarness,
  converse,
  joinedStaff,
  nextReply,
  startBotHarness,
  WEBHOOK_PATH,
  WEBHOOK_SECRET,
  waitUntil,
} from "../support/bot.js";

/** Another instance of the service on the harness's database, Bot API and banks, with its own log. */
async function secondInstance(harness: BotHarness): Promise<{ service: RunningService; logs: string[] }> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  return { service: await startService(harness.config, createLogger("info", sink)), logs };
}

describe("two instances on one database", () => {
  let harness: BotHarness | undefined;
  let second: RunningService | undefined;
  afterEach(async () => {
    await second?.close();
    await harness?.close();
    second = undefined;
    harness = undefined;
  });

  it("polls from one instance only, and the other takes over when it stops", async () => {
    harness = await startBotHarness("polling");
    const h = harness;
    await waitUntil(
      () => h.logs.some((line) => line.includes('"msg":"polling Telegram"')),
      "the first to poll",
    );
    const other = await secondInstance(h);
    second = other.service;
    await waitUntil(
      () => other.logs.some((line) => line.includes("another instance polls Telegram")),
      "the second to wait",
    );
    const staff = await joinedStaff(h);
    await h.service.close();
    await waitUntil(
      () => other.logs.some((line) => line.includes('"msg":"polling Telegram"')),
      "the second to take over",
      20_000,
    );
    await converse(h, staff.cashier, textMessage(staff.cashier, "/help"), /Forward me/);
  });

  it("answers a question asked by one instance through the other (webhook mode, state in PostgreSQL)", async () => {
    harness = await startBotHarness("webhook");
    const h = harness;
    const other = await secondInstance(h);
    second = other.service;
    const staff = await joinedStaff(h);
    const question = await converse(h, staff.cashier, textMessage(staff.cashier, "DFH51OFIED"), /Which bank/);
    await waitUntil(() => question.result !== undefined, "the question's id");
    const messageId = (question.result as { message_id: number }).message_id;
    const after = h.telegram.calls.length;
    const press = callbackQuery(staff.cashier, "pick:telebirr", {
      message_id: messageId,
      chat_id: staff.cashier.id,
    });
    const response = await fetch(`${other.service.url}${WEBHOOK_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": WEBHOOK_SECRET },
      body: JSON.stringify({ update_id: 999_001, ...press }),
    });
    expect(response.status).toBe(200);
    const card = await nextReply(h, staff.cashier, /Payment confirmed|⚠️|❌/, after);
    expect(card.payload.text).toContain("Payment confirmed");
  });
});
