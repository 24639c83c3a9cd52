import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textMessage } from "../../fakes/telegram.js";
import { RateLimiter } from "../../src/rate-limit.js";
import { createKey, createTenant, startTestApi, type TestApi } from "../support/api.js";
import { type BotHarness, converse, newUser, startBotHarness, waitUntil } from "../support/bot.js";

describe("RateLimiter", () => {
  it("allows `limit` attempts per window and key, then refuses until the window ends", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, 60_000, () => now);
    expect(limiter.hit("a")).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.hit("a")).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.hit("a")).toMatchObject({ allowed: false, firstRefused: true, retryAfterS: 60 });
    expect(limiter.hit("a")).toMatchObject({ allowed: false, firstRefused: false });
    expect(limiter.hit("b")).toMatchObject({ allowed: true });
    now += 45_000;
    expect(limiter.hit("a")).toMatchObject({ allowed: false, retryAfterS: 15 });
    now += 15_000;
    expect(limiter.hit("a")).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe("API rate limit per key", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ rateLimitPerMinute: 5 });
  });
  afterAll(() => api.close());

  it("answers 429 Too Many Attempts with Retry-After past the limit, per key", async () => {
    const tenant = await createTenant(api.db);
    const other = await createKey(api.db, tenant.branchId, "cashier");
    for (let i = 0; i < 5; i += 1) {
      const response = await api.request("GET", "/accounts", { key: tenant.key });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
    }
    const refused = await api.request("GET", "/accounts", { key: tenant.key });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: "Too Many Attempts." });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await api.request("GET", "/accounts", { key: other })).status).toBe(200);
  });

  it("sends security headers on every answer, errors included", async () => {
    for (const [path, status] of [
      ["/banks", 200],
      ["/accounts", 401],
      ["/nowhere", 404],
    ] as const) {
      const response = await api.request("GET", path);
      expect(response.status).toBe(status);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      });
    }
  });
});

describe("bot rate limit per Telegram user", () => {
  let harness: BotHarness;
  beforeAll(async () => {
    harness = await startBotHarness("polling", { BOT_RATE_LIMIT: "3" });
  });
  afterAll(() => harness.close());

  it("handles `limit` messages a minute, says so once, then ignores the rest of the window", async () => {
    const flooder = newUser("Flooder");
    const after = harness.telegram.calls.length;
    for (let i = 0; i < 7; i += 1) harness.telegram.pushUpdate(textMessage(flooder, `hello ${i}`));
    const replies = () =>
      harness.telegram
        .callsOf("sendMessage")
        .filter(
          (call) => call.payload.chat_id === flooder.id && harness.telegram.calls.indexOf(call) >= after,
        )
        .map((call) => String(call.payload.text));
    await waitUntil(() => harness.telegram.pendingUpdates().length === 0 && replies().length >= 4, "replies");
    // The rest of the window's messages handled too, so a reply to any of them would be here.
    await harness.settle();
    expect(replies().filter((text) => text.includes("invite"))).toHaveLength(3);
    expect(
      replies().filter((text) => /^Too many attempts\. Please wait \d+ seconds/.test(text)),
    ).toHaveLength(1);
    expect(replies()).toHaveLength(4);
  });
});

describe("invite code guessing", () => {
  let harness: BotHarness;
  beforeAll(async () => {
    harness = await startBotHarness("polling");
  });
  afterAll(() => harness.close());

  it("allows five /start codes per user in ten minutes", async () => {
    const guesser = newUser("Guesser");
    for (let i = 0; i < 5; i += 1) {
      await converse(harness, guesser, textMessage(guesser, `/start guess${i}`), /not valid/);
    }
    await converse(harness, guesser, textMessage(guesser, "/start guess5"), /Too many attempts/);
  });
});
