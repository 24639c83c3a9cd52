import { execFileSync } from "node:child_process";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeTelegram, type FakeUser, startFakeTelegram, textMessage } from "../../fakes/telegram.js";
import { VerificationSchema } from "../../src/db/entities/index.js";
import { createInvite } from "../../src/telegram/invites.js";
import { createTenant } from "../support/api.js";
import { WEBHOOK_PATH, WEBHOOK_SECRET } from "../support/bot.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { type Banks, firstExample, startBanks } from "../support/simulator.js";
import { waitFor } from "../support/wait.js";

// The built service killed with SIGKILL after a cashier's verification was recorded and before its card
// reached Telegram (the fake Bot API holds the card's call). After a restart on the same database the
// cashier gets exactly one card, the recorded confirmation: never "Already verified" about their own
// receipt, and no second record. In polling mode the update comes back from the poller's own table; in
// webhook mode Telegram delivers it again because the webhook never answered.

const TOKEN = "123456:TEST-TOKEN-0123456789abcdefABCDEF";
const link = firstExample("telebirr").shareUrl ?? "";
let db: TestDatabase;
let telegram: FakeTelegram;
let banks: Banks;
let nextUser = 6_100_000;
let nextUpdateId = 700_000;
const started: RunningServiceProcess[] = [];

beforeAll(async () => {
  [db, telegram, banks] = await Promise.all([
    createTestDatabase(),
    startFakeTelegram({ token: TOKEN }),
    startBanks(),
  ]);
});
afterAll(async () => {
  for (const service of started) await service.stop();
  await telegram?.close();
  await banks?.sim.close();
  await db?.drop();
});

type Mode = "polling" | "webhook";

async function start(mode: Mode): Promise<RunningServiceProcess> {
  const service = await startService({
    databaseUrl: db.url,
    bankOverrides: banks.sim.overrides,
    env: {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      BOT_MODE: mode,
      ...(mode === "webhook"
        ? { BOT_WEBHOOK_URL: `https://bot.example.com${WEBHOOK_PATH}`, BOT_WEBHOOK_SECRET: WEBHOOK_SECRET }
        : {}),
    },
  });
  started.push(service);
  return service;
}

/**
 * A service whose bot is connected: in webhook mode its route answers once the bot's code is loaded, which
 * its setWebhook call announces (Telegram would retry until then; this test delivers once).
 */
async function startReady(mode: Mode): Promise<RunningServiceProcess> {
  const after = telegram.calls.length;
  const service = await start(mode);
  const connected = mode === "webhook" ? "setWebhook" : "getUpdates";
  await telegram.waitForCall(connected, () => true, { after, timeoutMs: 30_000 });
  return service;
}

/** Sends an update as Telegram would in this mode; a webhook delivery cut off by the crash is not an error. */
async function deliver(service: RunningServiceProcess, mode: Mode, update: Update): Promise<void> {
  if (mode === "polling") {
    const { update_id: _, ...rest } = update;
    telegram.pushUpdate(rest);
    return;
  }
  await fetch(`${service.url}${WEBHOOK_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": WEBHOOK_SECRET },
    body: JSON.stringify(update),
  }).catch(() => undefined);
}

/** SIGKILL of the service and its workers at once: nothing finishes, nothing is drained. */
function killHard(service: RunningServiceProcess): void {
  const workers = execFileSync("ps", ["-o", "pid=", "--ppid", String(service.pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  for (const pid of [...workers, service.pid]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

const cardsTo = (user: FakeUser, after: number) =>
  telegram.calls
    .slice(after)
    .filter(
      (call) =>
        (call.method === "sendMessage" || call.method === "editMessageText") &&
        call.payload.chat_id === user.id &&
        /Payment confirmed|Already verified/.test(String(call.payload.text)),
    );

describe.each(["polling", "webhook"] as const)("kill -9 between the record and the card (%s)", (mode) => {
  it("the cashier gets one card after the restart, the recorded confirmation, and no second record", async () => {
    const tenant = await createTenant(db, { name: `bot crash ${mode}` });
    const cashier: FakeUser = { id: nextUser++, first_name: "Almaz", last_name: "Crash" };
    const { code } = await createInvite(db.orm.em.fork(), tenant.branchId, "cashier");
    let service = await startReady(mode);
    let after = telegram.calls.length;
    await deliver(service, mode, { update_id: nextUpdateId++, ...textMessage(cashier, `/start ${code}`) });
    await telegram.waitForCall(
      "sendMessage",
      (p) => p.chat_id === cashier.id && /Welcome/.test(String(p.text)),
      {
        after,
        timeoutMs: 30_000,
      },
    );

    // The card is the call after the record's commit: held, and the service killed while it waits.
    const held = telegram.holdNext(
      "editMessageText",
      (payload) => payload.chat_id === cashier.id && /Payment confirmed/.test(String(payload.text)),
    );
    const message = { update_id: nextUpdateId++, ...textMessage(cashier, link) };
    after = telegram.calls.length;
    const delivering = deliver(service, mode, message);
    await held.reached;
    killHard(service);
    held.release();
    await delivering;
    const records = () => db.orm.em.fork().find(VerificationSchema, { branch: tenant.branchId });
    expect((await records()).map((row) => row.success)).toEqual([true]);

    after = telegram.calls.length;
    service = await startReady(mode);
    // Webhook mode: Telegram delivers the unanswered update again (same update, same message).
    if (mode === "webhook") await deliver(service, mode, message);
    await waitFor(() => cardsTo(cashier, after).length > 0, "the card after the restart");
    // Whatever else happens now: handled updates are done, so nothing more comes.
    await service.stop();
    const cards = cardsTo(cashier, after);
    expect(cards).toHaveLength(1);
    expect(String(cards[0]?.payload.text)).toContain("Payment confirmed");
    expect((await records()).map((row) => row.success)).toEqual([true]);
  });
});
