import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textMessage } from "../../fakes/telegram.js";
import { VerificationSchema } from "../../src/db/entities/index.js";
import { type BotHarness, converse, joinedStaff, nextReply, startBotHarness } from "../support/bot.js";
import { firstExample } from "../support/simulator.js";
import { waitFor } from "../support/wait.js";

// Polling acknowledges a batch with the next getUpdates, long before its verifications finish. The poller
// keeps each update in bot_pending_updates until it is handled, and a poller that starts (after a crash,
// or on another instance) handles what the last one left unfinished: a cashier is never left at
// "Checking with <bank>…", and never told "Already verified" about their own receipt.

let harness: BotHarness;
beforeAll(async () => {
  harness = await startBotHarness("polling");
});
afterAll(async () => {
  await harness?.close();
});

const link = firstExample("telebirr").shareUrl ?? "";

async function pendingIds(): Promise<number[]> {
  const rows: { update_id: string }[] = await harness.db.orm.em
    .fork()
    .execute("select update_id from bot_pending_updates order by update_id");
  return rows.map((row) => Number(row.update_id));
}

/** Leaves an update behind as a poller that died before finishing it would. */
async function leaveBehind(update: Update): Promise<void> {
  await harness.db.orm.em
    .fork()
    .execute("insert into bot_pending_updates (update_id, body) values (?, ?::jsonb)", [
      update.update_id,
      JSON.stringify(update),
    ]);
}

const records = (branchId: number) =>
  harness.db.orm.em.fork().find(VerificationSchema, { branch: branchId }, { orderBy: { id: "asc" } });

describe("updates the poller fetched", () => {
  it("are kept while they are handled and forgotten once they are", async () => {
    const team = await joinedStaff(harness);
    const held = harness.hold("telebirr");
    const after = harness.telegram.calls.length;
    await harness.send(textMessage(team.cashier, link));
    await nextReply(harness, team.cashier, /Checking with Telebirr/, after);
    expect(await pendingIds()).toHaveLength(1);
    held.release();
    await nextReply(harness, team.cashier, /Payment confirmed/, after);
    await waitFor(async () => (await pendingIds()).length === 0, "the handled update to be forgotten");
  });

  it("left unfinished by a poller that died are handled by the next one", async () => {
    const team = await joinedStaff(harness);
    const update = { update_id: 900_001, ...textMessage(team.cashier, link) } as Update;
    await leaveBehind(update);
    const after = harness.telegram.calls.length;
    await harness.restart();
    const card = await nextReply(harness, team.cashier, /Payment confirmed|Already verified/, after);
    expect(card.payload.text).toContain("Payment confirmed");
    expect((await records(team.tenant.branchId)).map((row) => row.success)).toEqual([true]);
    await waitFor(async () => (await pendingIds()).length === 0, "the update to be forgotten");
  });

  it("recorded but not answered before the crash: the cashier gets the confirmation, no second record", async () => {
    const team = await joinedStaff(harness);
    const message = textMessage(team.cashier, link);
    // The verification ran and was recorded; the process died before its card was sent and the update
    // forgotten (here: the card was sent, and the update is put back as the crash would have left it).
    await converse(harness, team.cashier, message, /Payment confirmed/);
    await leaveBehind({ update_id: 900_002, ...message } as Update);
    const after = harness.telegram.calls.length;
    await harness.restart();
    const card = await nextReply(harness, team.cashier, /Payment confirmed|Already verified/, after);
    expect(card.payload.text).toContain("Payment confirmed");
    expect((await records(team.tenant.branchId)).map((row) => row.success)).toEqual([true]);
  });
});
