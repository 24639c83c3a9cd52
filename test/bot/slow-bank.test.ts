import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackQuery, textMessage } from "../../fakes/telegram.js";
import { VerificationSchema } from "../../src/db/entities/index.js";
import {
  type BotHarness,
  converse,
  joinedStaff,
  nextReply,
  type Staff,
  startBotHarness,
  waitUntil,
} from "../support/bot.js";
import { firstExample } from "../support/simulator.js";

// After 5 s on one bank the status says the bank is slow; at the deadline (7 s here) the card
// says the bank did not answer, with a "Try again" button that runs the same verification again.
describe("the bot and a slow bank", () => {
  let harness: BotHarness;
  let staff: Staff;
  beforeAll(async () => {
    harness = await startBotHarness("polling", { VERIFY_DEADLINE_MS: "7000" });
    staff = await joinedStaff(harness);
  });
  afterAll(() => harness?.close());

  const link = firstExample("zemen").shareUrl ?? "";
  const rows = () => harness.db.orm.em.fork().count(VerificationSchema, { branch: staff.tenant.branchId });

  it("says the bank is slow, then that it did not answer, and Try again verifies the same receipt", async () => {
    harness.sim.setMode("zemen", { kind: "hang" });
    const after = harness.telegram.calls.length;
    const started = Date.now();
    await harness.send(textMessage(staff.cashier, link));
    const slow = await nextReply(harness, staff.cashier, /is slow to answer/, after);
    expect(slow.method).toBe("editMessageText");
    // Exception, a lower bound: the notice is due 5 s in, nothing marks that moment from outside, and load
    // can only make it later.
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);

    const card = await nextReply(harness, staff.cashier, /did not answer in time/, after);
    expect(String(card.payload.text)).toContain("Zemen Bank did not answer in time");
    // The slow notice never replaces the card afterwards.
    const edits = harness.telegram.calls.slice(after).filter((call) => call.method === "editMessageText");
    expect(String(edits.at(-1)?.payload.text)).toContain("did not answer in time");
    expect(await rows()).toBe(0);

    const markup = card.payload.reply_markup as {
      inline_keyboard: { text: string; callback_data: string }[][];
    };
    const retry = markup.inline_keyboard[0]?.[0];
    expect(retry?.text).toContain("Try again");
    harness.sim.setMode("zemen", { kind: "normal" });
    const message = { message_id: Number(card.payload.message_id), chat_id: staff.cashier.id };
    const confirmed = await converse(
      harness,
      staff.cashier,
      callbackQuery(staff.cashier, retry?.callback_data ?? "", message),
      /Payment confirmed/,
    );
    expect(String(confirmed.payload.text)).toContain("Payment confirmed");
    expect(await rows()).toBe(1);

    // The button works once: a second press says the check has expired and verifies nothing.
    const again = harness.telegram.calls.length;
    await harness.send(callbackQuery(staff.cashier, retry?.callback_data ?? "", message));
    await waitUntil(
      () =>
        harness.telegram.calls
          .slice(again)
          .some((call) => call.method === "answerCallbackQuery" && /expired/.test(String(call.payload.text))),
      "the expired answer to a second press",
    );
    expect(await rows()).toBe(1);
  });
});
