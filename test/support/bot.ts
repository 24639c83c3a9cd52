import { Writable } from "node:stream";
import type { Update } from "grammy/types";
import {
  type BotApiCall,
  type FakeTelegram,
  type FakeUser,
  startFakeTelegram,
  textMessage,
} from "../../fakes/telegram.js";
import type { Role } from "../../src/auth/roles.js";
import { type RunningService, startService } from "../../src/compose.js";
import { type Config, loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createInvite } from "../../src/telegram/invites.js";
import { createTenant, type Tenant } from "./api.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { type Banks, type Simulator, startBanks } from "./simulator.js";
import { WAIT_MS, waitFor } from "./wait.js";

export const WEBHOOK_PATH = "/telegram/webhook";
export const WEBHOOK_SECRET = "test-webhook-secret_1";
const BOT_TOKEN = "123456:TEST-TOKEN-0123456789abcdefABCDEF";

export type BotMode = "polling" | "webhook";

export interface BotHarness {
  mode: BotMode;
  telegram: FakeTelegram;
  sim: Simulator;
  /** Holds a bank's answers until released (test/support/simulator.ts). */
  hold: Banks["hold"];
  db: TestDatabase;
  service: RunningService;
  /** The configuration the service runs with (another instance can be started with it). */
  config: Config;
  logs: string[];
  /** Delivers an update the way the mode does: queued for getUpdates, or POSTed to the webhook. */
  send(update: Omit<Update, "update_id">): Promise<void>;
  /** The service stopped and started again on the same database (a deploy, a crash). */
  restart(): Promise<void>;
  /**
   * Every update sent so far handled, with all it sends: waits until polling has fetched them, then
   * restarts the service, whose stop lets its handlers finish. For asserting that nothing else was sent.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real service (API and bot in one process, the same composition as `npm start`) on a fresh database,
 * against a fake Bot API through TELEGRAM_API_ROOT and the bank simulator through BANK_ORIGIN_OVERRIDES.
 */
export async function startBotHarness(mode: BotMode, env: Record<string, string> = {}): Promise<BotHarness> {
  const [telegram, banks, db] = await Promise.all([
    startFakeTelegram({ token: BOT_TOKEN }),
    startBanks(),
    createTestDatabase(),
  ]);
  const logs: string[] = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const config = loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_URL: db.url,
    BOOTSTRAP: "false",
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    BANK_ORIGIN_OVERRIDES: banks.sim.overrides,
    BOT_MODE: mode,
    // Flow suites send many messages from one user; the limit has its own tests.
    BOT_RATE_LIMIT: "0",
    // Reading a photo counts against the verification's deadline (25 s by default) and has its own limit
    // (20 s): a loaded machine must not turn a slow read into a failed test. Both limits have their own
    // tests (test/bot/slow-bank, test/api/deadline, test/receipts/ocr).
    VERIFY_DEADLINE_MS: "120000",
    OCR_TIMEOUT_MS: "120000",
    ...(mode === "webhook"
      ? { BOT_WEBHOOK_URL: `https://bot.example.com${WEBHOOK_PATH}`, BOT_WEBHOOK_SECRET: WEBHOOK_SECRET }
      : {}),
    ...env,
  });
  let service = await startService(config, logger);
  let nextUpdateId = 1;

  const harness: BotHarness = {
    mode,
    telegram,
    sim: banks.sim,
    hold: banks.hold,
    db,
    service,
    config,
    logs,
    async send(update) {
      if (mode === "polling") {
        telegram.pushUpdate(update);
        return;
      }
      await waitUntil(() => telegram.callsOf("setWebhook").length > 0, "setWebhook");
      const response = await fetch(`${service.url}${WEBHOOK_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": WEBHOOK_SECRET },
        body: JSON.stringify({ update_id: nextUpdateId++, ...update }),
      });
      if (response.status !== 200)
        throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
    },
    async restart() {
      await service.close();
      service = await startService(config, logger);
      harness.service = service;
    },
    async settle() {
      if (mode === "polling") {
        await waitUntil(() => telegram.undeliveredUpdates().length === 0, "polling to fetch every update");
      }
      await harness.restart();
    },
    async close() {
      await service.close();
      await Promise.all([telegram.close(), banks.sim.close()]);
      await db.drop();
    },
  };
  return harness;
}

export interface Staff {
  tenant: Tenant;
  cashier: FakeUser;
  manager: FakeUser;
}

let nextUserId = 5_000_000;

export function newUser(first_name: string): FakeUser {
  return { id: nextUserId++, first_name, last_name: "Test" };
}

/** A business and branch, with a cashier and a manager who joined through the bot with invite codes. */
export async function joinedStaff(harness: BotHarness, options: { quota?: number } = {}): Promise<Staff> {
  const tenant = await createTenant(harness.db, { quota: options.quota ?? 100 });
  const cashier = newUser("Almaz");
  const manager = newUser("Bekele");
  for (const [user, role] of [
    [cashier, "cashier"],
    [manager, "manager"],
  ] as const) {
    await join(harness, user, tenant.branchId, role);
  }
  return { tenant, cashier, manager };
}

export async function join(harness: BotHarness, user: FakeUser, branchId: number, role: Role): Promise<void> {
  const invite = await createInvite(harness.db.orm.em.fork(), branchId, role);
  const after = harness.telegram.calls.length;
  await harness.send(textMessage(user, `/start ${invite.code}`));
  await nextReply(harness, user, /Welcome/, after);
}

/**
 * The bot's next message to the user (a new message or an edit of one) whose text matches, among calls
 * made after `after`. Status messages are edited into results, so edits count.
 */
export async function nextReply(
  harness: BotHarness,
  user: FakeUser,
  pattern: RegExp,
  after: number,
  timeoutMs = WAIT_MS,
): Promise<BotApiCall> {
  let found: BotApiCall | undefined;
  await waitUntil(
    () => {
      found = harness.telegram.calls
        .slice(after)
        .find(
          (call) =>
            (call.method === "sendMessage" || call.method === "editMessageText") &&
            call.payload.chat_id === user.id &&
            pattern.test(String(call.payload.text)),
        );
      return found !== undefined;
    },
    `a reply to ${user.first_name} matching ${pattern}`,
    timeoutMs,
    () =>
      harness.telegram.calls
        .slice(after)
        .map((call) => `${call.method} ${JSON.stringify(call.payload.text ?? call.payload)}`)
        .join("\n"),
  );
  return found as BotApiCall;
}

/** Says something to the bot and waits for the reply matching `pattern`. */
export async function converse(
  harness: BotHarness,
  user: FakeUser,
  update: Omit<Update, "update_id">,
  pattern: RegExp,
): Promise<BotApiCall> {
  const after = harness.telegram.calls.length;
  await harness.send(update);
  return nextReply(harness, user, pattern, after);
}

/** A state of the fake Bot API or the harness (test/support/wait.ts's waitFor, with what was seen). */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = WAIT_MS,
  seen: () => string = () => "",
): Promise<void> {
  await waitFor(condition, what, { timeoutMs, seen });
}
