import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

describe("loadConfig", () => {
  it("has defaults for everything", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, logLevel: "info", bootstrap: true });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it("reads the variables", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "postgresql://u:p@db.internal:5432/birrcheck",
      DATA_DIR: "/var/lib/birrcheck",
      LOG_LEVEL: "warn",
      BOOTSTRAP: "false",
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: "postgresql://u:p@db.internal:5432/birrcheck",
      dataDir: "/var/lib/birrcheck",
      logLevel: "warn",
      bootstrap: false,
    });
  });

  it("runs one worker per core but one (at least one) unless WEB_CONCURRENCY says otherwise", () => {
    expect(loadConfig({}).webConcurrency).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(() => loadConfig({ WEB_CONCURRENCY: "0" })).toThrow(
      "Invalid configuration: WEB_CONCURRENCY must be at least 1.",
    );
  });

  it("reads DATABASE_POOLER: session unless a transaction-mode pooler is named", () => {
    expect(loadConfig({}).database.pooler).toBe("session");
    expect(loadConfig({ DATABASE_POOLER: "transaction" }).database.pooler).toBe("transaction");
    expect(() => loadConfig({ DATABASE_POOLER: "statement" })).toThrow(/DATABASE_POOLER/);
  });

  it("keeps all history unless HISTORY_RETENTION_MONTHS names a whole number of months", () => {
    expect(loadConfig({}).historyRetentionMonths).toBeNull();
    expect(loadConfig({ HISTORY_RETENTION_MONTHS: "24" }).historyRetentionMonths).toBe(24);
    expect(() => loadConfig({ HISTORY_RETENTION_MONTHS: "0" })).toThrow(
      "Invalid configuration: HISTORY_RETENTION_MONTHS must be at least 1.",
    );
    expect(() => loadConfig({ HISTORY_RETENTION_MONTHS: "1.5" })).toThrow(
      "Invalid configuration: HISTORY_RETENTION_MONTHS must be a whole number of months.",
    );
    expect(() => loadConfig({ HISTORY_RETENTION_MONTHS: "two years" })).toThrow(
      "Invalid configuration: HISTORY_RETENTION_MONTHS must be a whole number of months.",
    );
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it("names every bad variable in one message", () => {
    expect(() => loadConfig({ PORT: "99999", BOOTSTRAP: "yes" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "99999", BOOTSTRAP: "yes" })).toThrow(
      "Invalid configuration: PORT must be between 0 and 65535; BOOTSTRAP must be true or false.",
    );
  });

  it("does not read process.env", () => {
    process.env.PORT = "1234";
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      delete process.env.PORT;
    }
  });

  describe("Telegram", () => {
    const token = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345";

    it("has no bot without a token, and polls api.telegram.org by default", () => {
      expect(loadConfig({}).telegram).toBeNull();
      expect(loadConfig({ TELEGRAM_BOT_TOKEN: token }).telegram).toEqual({
        token,
        apiRoot: "https://api.telegram.org",
        concurrency: 50,
        ratePerMinute: 30,
        mode: { kind: "polling" },
      });
    });

    it("reads webhook mode with its URL and secret", () => {
      const config = loadConfig({
        TELEGRAM_BOT_TOKEN: token,
        TELEGRAM_API_ROOT: "http://127.0.0.1:8081/",
        BOT_MODE: "webhook",
        BOT_WEBHOOK_URL: "https://birrcheck.example.com/telegram/webhook",
        BOT_WEBHOOK_SECRET: "s3cret_token-1",
      });
      expect(config.telegram).toMatchObject({
        apiRoot: "http://127.0.0.1:8081",
        mode: {
          kind: "webhook",
          url: "https://birrcheck.example.com/telegram/webhook",
          secret: "s3cret_token-1",
        },
      });
    });

    it("refuses a malformed token, a webhook without URL or secret, and a bad secret", () => {
      expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: "not-a-token" })).toThrow(
        "TELEGRAM_BOT_TOKEN must be a bot token from BotFather",
      );
      expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: token, BOT_MODE: "webhook" })).toThrow(
        "Invalid configuration: BOT_WEBHOOK_URL is required when BOT_MODE is webhook; BOT_WEBHOOK_SECRET is required when BOT_MODE is webhook.",
      );
      expect(() => loadConfig({ BOT_WEBHOOK_SECRET: "has spaces" })).toThrow(
        "BOT_WEBHOOK_SECRET must be 1 to 256",
      );
      expect(() => loadConfig({ BOT_MODE: "push" })).toThrow("BOT_MODE must be polling or webhook");
    });
  });
});
