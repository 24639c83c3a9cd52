import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram, textMessage } from "../../fakes/telegram.js";
import { type RunningService, startService } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
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
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { firstExample } from "../support/simulator.js";
import { within } from "../support/wait.js";

const TOKEN = "123456:TEST-TOKEN-0123456789abcdefABCDEF";

describe("bot lifecycle", () => {
  let cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup = [];
  });

  it("serves the REST API while the Bot API is unreachable, and connects once it answers", async () => {
    const telegram: FakeTelegram = await startFakeTelegram({ token: TOKEN });
    await telegram.close();
    const db: TestDatabase = await createTestDatabase();
    cleanup.push(() => db.drop());
    const config = loadConfig({
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_URL: db.url,
      BOOTSTRAP: "false",
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: telegram.apiRoot,
    });
    // Not held up by the Bot API: a start that waited for it would never return.
    const service: RunningService = await within(
      startService(config, createLogger("silent")),
      "the service's start while the Bot API is unreachable",
    );
    cleanup.push(() => service.close());
    expect((await fetch(`${service.url}/api/v1/banks`)).status).toBe(200);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);

    await telegram.reopen();
    cleanup.push(() => telegram.close());
    await waitUntil(
      () => telegram.callsOf("getUpdates").length > 0,
      "polling after the Bot API came back",
      30_000,
    );
    expect(telegram.callsOf("getMe").length).toBeGreaterThan(0);
  });

  it("needs only the Bot API methods the issue lists, and clears a leftover webhook when Telegram says so", async () => {
    const harness: BotHarness = await startBotHarness("polling");
    cleanup.push(() => harness.close());
    const missing = { error_code: 404, description: "Not Found: method not found" };
    harness.telegram.failNext("deleteMyCommands", missing, 1000);
    harness.telegram.failNext("getUpdates", {
      error_code: 409,
      description:
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    });
    const staff = await joinedStaff(harness);
    expect(harness.telegram.callsOf("deleteWebhook").length).toBe(1);
    await converse(harness, staff.cashier, textMessage(staff.cashier, "/leave"), /You left/);
  });

  it("stops quickly and confirms the last update, so a restart does not see it again", async () => {
    const harness: BotHarness = await startBotHarness("polling");
    cleanup.push(() => harness.close());
    const staff = await joinedStaff(harness);
    await converse(harness, staff.cashier, textMessage(staff.cashier, "/help"), /Forward me/);
    // Quickly: the stop ends the long poll it is parked in (30 s), rather than waiting for it to time out.
    const parked = () =>
      harness.telegram
        .callsOf("getUpdates")
        .find((call) => call.result === undefined && Number(call.payload.timeout) > 0);
    await waitUntil(() => parked() !== undefined, "a long poll");
    const poll = parked();
    await harness.restart();
    expect(poll?.endedBy).toBe("client");
    expect(harness.telegram.pendingUpdates()).toEqual([]);
  });

  // What @grammyjs/runner's stop() does not do (bot/polling.ts): it resolves while handlers run,
  // and the updates it fetched while its sink was full stay unconfirmed.
  it("finishes the updates in hand at stop and confirms them, so the next start does not handle them again", async () => {
    // One at a time, so fetching pauses with two slow verifications in hand (2 × BOT_CONCURRENCY) and the
    // second is still to run when polling stops.
    const harness: BotHarness = await startBotHarness("polling", { BOT_CONCURRENCY: "1" });
    cleanup.push(() => harness.close());
    const [first, second] = [await joinedStaff(harness), await joinedStaff(harness)];
    // The bank keeps its answers until the stop has begun: both verifications are in hand when it does.
    const held = harness.hold("zemen");
    const after = harness.telegram.calls.length;
    const link = firstExample("zemen").shareUrl ?? "";
    await harness.send(textMessage(first.cashier, link));
    await harness.send(textMessage(second.cashier, link));
    await nextReply(harness, first.cashier, /Checking with/, after);
    await waitUntil(() => harness.telegram.undeliveredUpdates().length === 0, "both updates fetched");
    const restarted = harness.restart();
    held.release();
    await restarted;
    const cards = (user: { id: number }) =>
      harness.telegram
        .callsTo(user.id)
        .filter((call) => harness.telegram.calls.indexOf(call) >= after)
        .filter((call) => /Payment confirmed|already verified/i.test(String(call.payload.text)));
    // Both were answered before the old instance let go of them.
    expect(cards(first.cashier)).toHaveLength(1);
    expect(cards(second.cashier)).toHaveLength(1);
    expect(harness.telegram.pendingUpdates()).toEqual([]);
    // The new instance polls and answers, and has verified neither receipt a second time.
    await converse(harness, first.cashier, textMessage(first.cashier, "/help"), /Forward me/);
    expect(cards(first.cashier)).toHaveLength(1);
    expect(cards(second.cashier)).toHaveLength(1);
  });
});

describe("the webhook route", () => {
  let harness: BotHarness;
  afterEach(() => harness?.close());

  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${harness.service.url}${WEBHOOK_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("refuses requests without the secret token, and bodies that are not updates", async () => {
    harness = await startBotHarness("webhook");
    const update = JSON.stringify({ update_id: 1, ...textMessage({ id: 42 }, "/help") });
    const missing = await post(update, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: "Unauthenticated." });
    expect((await post(update, { "x-telegram-bot-api-secret-token": "wrong" })).status).toBe(401);
    const secret = { "x-telegram-bot-api-secret-token": WEBHOOK_SECRET };
    const bad = await post('{"hello": "world"}', secret);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: "The request body is not a Telegram update." });
    expect((await post("{not json", secret)).status).toBe(400);
    const get = await fetch(`${harness.service.url}${WEBHOOK_PATH}`);
    expect(get.status).toBe(405);
    expect(harness.telegram.callsOf("sendMessage")).toEqual([]);
  });
});

describe("update order", () => {
  let harness: BotHarness;
  afterEach(() => harness?.close());

  it("answers other chats while one waits for a slow bank; a chat's own messages stay in order", async () => {
    harness = await startBotHarness("polling");
    const slowTeam = await joinedStaff(harness);
    const fastTeam = await joinedStaff(harness);
    // Zemen answers only once the other chat has had its answer, however long that takes.
    const held = harness.hold("zemen");
    const zemen = firstExample("zemen").shareUrl ?? "";
    const after = harness.telegram.calls.length;
    harness.telegram.pushUpdate(textMessage(slowTeam.cashier, zemen));
    harness.telegram.pushUpdate(textMessage(slowTeam.cashier, "/help"));
    harness.telegram.pushUpdate(textMessage(fastTeam.cashier, firstExample("telebirr").shareUrl ?? ""));
    const texts = () =>
      harness.telegram.calls
        .slice(after)
        .filter((call) => call.method === "sendMessage" || call.method === "editMessageText")
        .map((call) => `${call.payload.chat_id}:${String(call.payload.text).split("\n")[0]}`);
    await waitUntil(
      () => texts().some((t) => t.startsWith(`${fastTeam.cashier.id}:✅`)),
      "the other chat's answer while zemen is held",
    );
    held.release();
    await waitUntil(
      () => texts().filter((t) => /Payment confirmed|Forward me/.test(t)).length === 3,
      "three answers",
    );
    const answers = texts().filter((t) => /Payment confirmed|Forward me/.test(t));
    expect(answers).toEqual([
      `${fastTeam.cashier.id}:✅ <b>Payment confirmed</b>`,
      `${slowTeam.cashier.id}:✅ <b>Payment confirmed</b>`,
      expect.stringMatching(new RegExp(`^${slowTeam.cashier.id}:Forward me`)),
    ]);
  });
});
