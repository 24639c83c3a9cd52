import { Bot, GrammyError } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  callbackQuery,
  documentMessage,
  type FakeTelegram,
  forwardedText,
  photoMessage,
  startFakeTelegram,
  textMessage,
} from "../../fakes/telegram.js";
import { WAIT_MS, within } from "../support/wait.js";

const CASHIER = { id: 5001, first_name: "Abebe" };

let fake: FakeTelegram;
let bot: Bot;

beforeEach(async () => {
  fake = await startFakeTelegram();
  bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
});

afterEach(async () => {
  if (bot.isRunning()) await bot.stop().catch(() => undefined);
  await fake.close();
});

async function apiError(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
  return error;
}

describe("fake Telegram Bot API", () => {
  it("answers getMe and records the call", async () => {
    const me = await bot.api.getMe();
    expect(me).toMatchObject({
      id: 123456,
      is_bot: true,
      username: "birrcheck_test_bot",
      can_join_groups: true,
    });
    expect(fake.botUsername).toBe("birrcheck_test_bot");
    expect(fake.callsOf("getMe")).toHaveLength(1);
  });

  it("sends and edits messages like Telegram", async () => {
    const keyboard = { inline_keyboard: [[{ text: "Yes", callback_data: "yes" }]] };
    const first = await bot.api.sendMessage(CASHIER.id, "hello", { reply_markup: keyboard });
    const second = await bot.api.sendMessage(CASHIER.id, "<b>bold</b> &amp; fine", { parse_mode: "HTML" });
    expect(second.message_id).toBe(first.message_id + 1);
    expect(first).toMatchObject({
      text: "hello",
      chat: { id: CASHIER.id, type: "private" },
      reply_markup: keyboard,
    });
    expect(first.from?.username).toBe("birrcheck_test_bot");

    const edited = await bot.api.editMessageText(CASHIER.id, first.message_id, "bye");
    expect(edited).toMatchObject({ message_id: first.message_id, text: "bye" });
    expect(edited).not.toHaveProperty("reply_markup");
    const same = await apiError(bot.api.editMessageText(CASHIER.id, first.message_id, "bye"));
    expect(same.description).toMatch(/message is not modified/);
    await expect(bot.api.sendChatAction(CASHIER.id, "typing")).resolves.toBe(true);
    await expect(bot.api.deleteMessage(CASHIER.id, second.message_id)).resolves.toBe(true);

    expect(
      (await apiError(bot.api.sendMessage(CASHIER.id, "a < b", { parse_mode: "HTML" }))).description,
    ).toMatch(/can't parse entities/);
    expect(
      (await apiError(bot.api.sendMessage(CASHIER.id, "Paid 5.00", { parse_mode: "MarkdownV2" }))).error_code,
    ).toBe(400);
    await bot.api.sendMessage(CASHIER.id, "Paid 5\\.00 `a.b` [link](https://x.et/a.b)", {
      parse_mode: "MarkdownV2",
    });
    expect((await apiError(bot.api.sendMessage(CASHIER.id, "x".repeat(4097)))).description).toBe(
      "Bad Request: message is too long",
    );

    expect(fake.callsTo(CASHIER.id).map((c) => c.method)).toEqual([
      "sendMessage",
      "sendMessage",
      "editMessageText",
      "editMessageText",
      "sendChatAction",
      "deleteMessage",
      "sendMessage",
      "sendMessage",
      "sendMessage",
      "sendMessage",
    ]);
  });

  it("waits for calls, past and future, and explains a timeout", async () => {
    await bot.api.sendMessage(CASHIER.id, "one");
    await expect(fake.waitForCall("sendMessage")).resolves.toMatchObject({ payload: { text: "one" } });
    const after = fake.calls.length;
    const waiting = fake.waitForCall("sendMessage", (p) => p.text === "two", { after });
    await bot.api.sendMessage(CASHIER.id, "two");
    await expect(waiting).resolves.toMatchObject({ payload: { chat_id: CASHIER.id, text: "two" } });
    await expect(
      fake.waitForCall("sendMessage", (p) => p.text === "three", { timeoutMs: 50 }),
    ).rejects.toThrow(/no matching sendMessage call within 50 ms[\s\S]*"text":"two"/);
  });

  it("serves stored files through getFile and the download path", async () => {
    const bytes = new Uint8Array(Buffer.from("%PDF-1.4 fake receipt"));
    const stored = fake.addFile(bytes);
    expect(stored.file_size).toBe(bytes.length);
    const file = await bot.api.getFile(stored.file_id);
    expect(file.file_path).toMatch(/^documents\/file_\d+\.pdf$/);
    const download = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);

    expect((await fetch(`${fake.apiRoot}/file/bot${fake.token}/documents/none.pdf`)).status).toBe(404);
    expect((await fetch(`${fake.apiRoot}/file/bot1:WRONG/${file.file_path}`)).status).toBe(401);
    expect((await apiError(bot.api.getFile("nope"))).description).toBe("Bad Request: invalid file_id");
    const huge = fake.addFile(bytes, { fileSize: 25 * 1024 * 1024, extension: "jpg" });
    expect(huge.file_size).toBe(25 * 1024 * 1024);
    expect((await apiError(bot.api.getFile(huge.file_id))).description).toBe("Bad Request: file is too big");
  });

  it("fails a method on demand, then recovers", async () => {
    fake.failNext("sendMessage", { error_code: 500, description: "Internal Server Error" });
    expect((await apiError(bot.api.sendMessage(CASHIER.id, "x"))).error_code).toBe(500);
    await expect(bot.api.sendMessage(CASHIER.id, "x")).resolves.toMatchObject({ text: "x" });

    fake.failNext(
      "sendMessage",
      { error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } },
      2,
    );
    const limited = await apiError(bot.api.sendMessage(CASHIER.id, "x"));
    expect(limited.error_code).toBe(429);
    expect(limited.parameters.retry_after).toBe(1);
    expect((await apiError(bot.api.sendMessage(CASHIER.id, "x"))).error_code).toBe(429);
    await expect(bot.api.sendMessage(CASHIER.id, "x")).resolves.toBeDefined();
  });

  it("refuses unknown methods, wrong tokens and non-JSON bodies", async () => {
    expect((await apiError(bot.api.raw.getChat({ chat_id: 1 }))).error_code).toBe(404);
    expect(fake.callsOf("getChat")).toHaveLength(1);
    const stranger = new Bot("999:OTHER", { client: { apiRoot: fake.apiRoot } });
    expect((await apiError(stranger.api.getMe())).error_code).toBe(401);
    const form = await fetch(`${fake.apiRoot}/bot${fake.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "chat_id=1&text=hi",
    });
    expect(form.status).toBe(400);
    await expect(bot.api.getWebhookInfo()).resolves.toMatchObject({ url: "", pending_update_count: 0 });
  });

  it("delivers updates to a polling bot and confirms them with the offset", async () => {
    // command() matches only with the bot_command entity that textMessage() adds.
    bot.command("start", (ctx) => ctx.reply("started"));
    bot.on("message:text", (ctx) => ctx.reply(`echo ${ctx.message.text}`));
    bot.catch(() => undefined);
    void bot.start();
    // The bot is parked in a long poll before the update exists: pushUpdate must wake it.
    const parked = await fake.waitForCall("getUpdates", (p) => p.timeout === 30);
    const id = fake.pushUpdate(textMessage(CASHIER, "hello"));
    const reply = await fake.waitForCall("sendMessage", undefined, { timeoutMs: WAIT_MS });
    expect(parked.endedBy).toBe("update");
    expect(reply.payload).toMatchObject({ chat_id: CASHIER.id, text: "echo hello" });

    fake.pushUpdate(textMessage(CASHIER, "/start"));
    await fake.waitForCall("sendMessage", (p) => p.text === "started", { timeoutMs: WAIT_MS });

    await bot.stop();
    const lastPoll = fake.callsOf("getUpdates").at(-1);
    expect(lastPoll?.payload.offset).toBe(id + 2);
    expect(fake.pendingUpdates()).toEqual([]);
    await expect(bot.api.getUpdates({ timeout: 0 })).resolves.toEqual([]);
  });

  it("close() ends pending polls and refuses connections, so bot.stop() returns at once; reopen() recovers", async () => {
    bot.catch(() => undefined);
    void bot.start();
    const parked = await fake.waitForCall("getUpdates", (p) => p.timeout === 30);
    await fake.close();
    expect(parked.endedBy).toBe("closed");
    // A poll left open would hold bot.stop() for its 30 s.
    await within(
      bot.stop().catch(() => undefined),
      "bot.stop() after close()",
    );
    await expect(fetch(`${fake.apiRoot}/bot${fake.token}/getMe`)).rejects.toThrow();

    await fake.reopen();
    await expect(bot.api.getMe()).resolves.toMatchObject({ username: fake.botUsername });
  });

  it("builds updates as Telegram sends them", () => {
    const text = textMessage(CASHIER, "/verify https://mbreciept.cbe.com.et/v2-abc, thanks").message;
    expect(text?.chat).toEqual({ id: CASHIER.id, type: "private", first_name: "Abebe" });
    expect(text?.entities).toEqual([
      { type: "bot_command", offset: 0, length: 7 },
      { type: "url", offset: 8, length: "https://mbreciept.cbe.com.et/v2-abc".length },
    ]);
    const file = { file_id: "F1", file_unique_id: "U1", file_size: 1000 };
    const photo = photoMessage(CASHIER, file, "receipt").message;
    expect(photo?.photo?.at(-1)).toMatchObject(file);
    expect(photo?.photo).toHaveLength(2);
    expect(photo?.caption).toBe("receipt");
    const doc = documentMessage(CASHIER, file, { file_name: "r.pdf", mime_type: "application/pdf" }).message;
    expect(doc?.document).toMatchObject({ ...file, file_name: "r.pdf", mime_type: "application/pdf" });
    const press = callbackQuery(CASHIER, "confirm:1", { message_id: 7, chat_id: CASHIER.id }).callback_query;
    expect(press).toMatchObject({ data: "confirm:1", from: { id: CASHIER.id }, message: { message_id: 7 } });
    expect(press?.id).not.toBe(callbackQuery(CASHIER, "x", { message_id: 7, chat_id: 1 }).callback_query?.id);
    const forwarded = forwardedText(CASHIER, "You have received ETB 100").message;
    expect(forwarded?.forward_origin?.type).toBe("user");
    expect(forwarded?.text).toBe("You have received ETB 100");
  });
});
