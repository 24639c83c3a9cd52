import { textMessage } from "../../fakes/telegram.js";
import { createBranch } from "../../src/admin/businesses.js";
import { TelegramMemberSchema } from "../../src/db/entities/index.js";
import type { BenchContext } from "../context.js";
import { atLeast, recorded, type ScenarioResult } from "../figures.js";
import { benchReference } from "../sim-bank.js";
import { round } from "../stats.js";

const CHATS = 50;
const UPDATES = 200;
const MAX_MS = 120_000;
const FIRST_USER_ID = 9_100_000;

/**
 * 8. Bot: 200 updates (telebirr receipt links from 50 different chats) through the fake Bot API, each
 * polled by the service's bot, verified on the engine and answered with a result card.
 */
export async function bot(ctx: BenchContext): Promise<ScenarioResult> {
  const { telegram } = ctx;
  const em = ctx.orm.em.fork();
  const branch = await createBranch(em, ctx.tenant.businessId, "Bench bot");
  for (let i = 0; i < CHATS; i += 1) {
    em.create(TelegramMemberSchema, {
      telegramUserId: String(FIRST_USER_ID + i),
      branch: branch.id,
      role: "cashier",
      name: `Cashier ${i}`,
      createdAt: new Date(),
    });
  }
  await em.flush();
  await until(() => telegram.callsOf("getUpdates").length > 0, MAX_MS);

  const first = telegram.calls.length;
  const cards = () =>
    telegram.calls
      .slice(first)
      .filter(
        (call) =>
          call.method === "editMessageText" && String(call.payload.text).includes("Payment confirmed"),
      ).length;
  const started = performance.now();
  for (let i = 0; i < UPDATES; i += 1) {
    const user = { id: FIRST_USER_ID + (i % CHATS), first_name: `Cashier ${i % CHATS}` };
    const link = `https://transactioninfo.ethiotelecom.et/receipt/${benchReference("G", i)}`;
    telegram.pushUpdate(textMessage(user, link));
  }
  await until(() => cards() >= UPDATES, MAX_MS);
  const seconds = (performance.now() - started) / 1000;
  const apiCalls = telegram.calls.length - first;
  return {
    figures: [
      recorded(
        "bot.rate",
        8,
        "bot updates handled end to end/s (200 links, 50 chats)",
        round(UPDATES / seconds, 0),
        "/s",
      ),
      atLeast("bot.confirmed", 8, "… answered with a confirmed card", cards(), "", UPDATES),
    ],
    details: { chats: CHATS, updates: UPDATES, seconds: round(seconds), botApiCalls: apiCalls },
  };
}

async function until(condition: () => boolean, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("bot scenario: timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
