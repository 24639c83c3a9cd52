import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateDispatcher } from "../../bot/dispatcher.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/metrics/registry.js";
import { createReceiptReader } from "../../src/receipts/reader.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { parseSamples } from "./harness.js";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/receipts/telebirr/sms-received.txt");
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "birrcheck-metrics-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("receipt reading durations", () => {
  it("observes one OCR run per image and one PDF parse per PDF", async () => {
    const metrics = createMetrics();
    const sms = await readFile(FIXTURE, "utf8");
    const ocr = {
      recognize: async () => ({ text: sms, doubtful: [], glyphs: [], codes: [] }),
      close: async () => undefined,
    };
    const reader = createReceiptReader({ ocr, metrics });
    const image = path.join(dir, "photo.png");
    await writeFile(image, PNG_HEAD);
    await reader.read({ file: { path: image } });
    const pdf = path.join(dir, "receipt.pdf");
    await writeFile(pdf, await renderPdf((doc) => doc.text(sms)));
    expect((await reader.read({ file: { path: pdf } })).method).toBe("receipt_pdf");
    // Text sent by the caller needs neither.
    await reader.read({ text: sms });

    const samples = parseSamples(await metrics.registry.metrics());
    expect(samples.value("birrcheck_ocr_duration_seconds_count")).toBe(1);
    expect(samples.value("birrcheck_pdf_parse_duration_seconds_count")).toBe(1);
    expect(samples.value("birrcheck_pdf_parse_duration_seconds_sum")).toBeGreaterThan(0);
  });
});

describe("bot updates", () => {
  it("are counted by type as the dispatcher takes them", async () => {
    const metrics = createMetrics();
    const logger = createLogger("silent", new Writable({ write: (_c, _e, done) => done() }));
    const dispatcher = new UpdateDispatcher(async () => undefined, 4, logger, metrics);
    const chat = { id: 7, type: "private" as const, first_name: "A" };
    const from = { id: 7, is_bot: false, first_name: "A" };
    const updates = [
      { update_id: 1, message: { message_id: 1, date: 0, chat, from, text: "/start" } },
      { update_id: 2, message: { message_id: 2, date: 0, chat, from, text: "FT1" } },
      { update_id: 3, callback_query: { id: "q", from, chat_instance: "c", data: "x" } },
      { update_id: 4, edited_message: { message_id: 2, date: 0, edit_date: 1, chat, from, text: "FT2" } },
    ] as Update[];
    await Promise.all(updates.map((update) => dispatcher.dispatch(update)));

    const samples = parseSamples(await metrics.registry.metrics());
    expect(samples.value("birrcheck_bot_updates_total", { type: "message" })).toBe(2);
    expect(samples.value("birrcheck_bot_updates_total", { type: "callback_query" })).toBe(1);
    expect(samples.value("birrcheck_bot_updates_total", { type: "other" })).toBe(1);
  });
});

describe("registries", () => {
  it("belong to one instance each: two apps in one process never share a count", async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.quotaRejections.inc();
    expect(parseSamples(await first.registry.metrics()).value("birrcheck_quota_rejections_total")).toBe(1);
    expect(parseSamples(await second.registry.metrics()).value("birrcheck_quota_rejections_total")).toBe(0);
  });
});

describe("configuration", () => {
  it("reads the breaker settings and the metrics token", () => {
    expect(loadConfig({})).toMatchObject({
      breaker: { failures: 5, cooldownMs: 30_000 },
      metricsToken: undefined,
    });
    expect(
      loadConfig({
        BANK_BREAKER_FAILURES: "3",
        BANK_BREAKER_COOLDOWN_MS: "1000",
        METRICS_TOKEN: "a-long-enough-token",
      }),
    ).toMatchObject({ breaker: { failures: 3, cooldownMs: 1000 }, metricsToken: "a-long-enough-token" });
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ BANK_BREAKER_FAILURES: "0" })).toThrow(/BANK_BREAKER_FAILURES/);
  });
});
