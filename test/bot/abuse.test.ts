import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackQuery } from "../../fakes/telegram.js";
import { createAccount } from "../../src/accounts/saved-accounts.js";
import { SavedAccountSchema, TelegramMemberSchema } from "../../src/db/entities/index.js";
import { type BotHarness, joinedStaff, newUser, type Staff, startBotHarness } from "../support/bot.js";

/** Forged and out-of-role button presses: each is answered, and nothing changes. */
describe("bot abuse", () => {
  let harness: BotHarness;
  let branchA: Staff;
  let branchB: Staff;
  let accountA: number;
  let accountB: number;
  beforeAll(async () => {
    harness = await startBotHarness("polling");
    branchA = await joinedStaff(harness);
    branchB = await joinedStaff(harness);
    const em = harness.db.orm.em.fork();
    const account = { bank: "cbe" as const, label: "Till", isPrimary: true };
    accountA = (
      await createAccount(em, branchA.tenant.branchId, { ...account, accountNumber: "1000111111111" })
    ).id;
    accountB = (
      await createAccount(em, branchB.tenant.branchId, { ...account, accountNumber: "1000222222222" })
    ).id;
  });
  afterAll(() => harness.close());

  /** Presses a button with the given data and returns the text of the answer to that press. */
  async function press(user: { id: number }, data: string): Promise<string> {
    const after = harness.telegram.calls.length;
    harness.telegram.pushUpdate(callbackQuery(user, data, { message_id: 1, chat_id: user.id }));
    const answer = await harness.telegram.waitForCall("answerCallbackQuery", () => true, { after });
    return String(answer.payload.text);
  }

  const savedAccounts = () =>
    harness.db.orm.em.fork().count(SavedAccountSchema, { id: { $in: [accountA, accountB] } });

  it.each([
    ["delete", "acc:delete-yes"],
    ["make primary", "acc:primary"],
    ["ask to delete", "acc:delete"],
  ])("refuses a manager's forged %s of another branch's account", async (_name, action) => {
    expect(await press(branchA.manager, `${action}:${accountB}`)).toBe("That account no longer exists.");
    expect(await savedAccounts()).toBe(2);
  });

  it.each(["acc:delete-yes", "acc:primary", "acc:delete"])(
    "refuses a cashier's %s on their own branch",
    async (action) => {
      expect(await press(branchA.cashier, `${action}:${accountA}`)).toBe("This command is for managers.");
      expect(await savedAccounts()).toBe(2);
    },
  );

  it.each([
    "hist:99d:x:1",
    "hist:7d:ok:99999999",
    "acc:primary:123456789012",
    "pick:cbe",
    "acc:delete-yes:-1",
    "",
    "x".repeat(64),
  ])("answers forged data %j as an expired question", async (data) => {
    expect(await press(branchA.manager, data)).toBe(
      "This question is no longer open. Send the receipt again.",
    );
    expect(await savedAccounts()).toBe(2);
  });

  it("answers an outsider's button press with how to join, and changes nothing", async () => {
    const stranger = newUser("Stranger");
    expect(await press(stranger, `acc:delete-yes:${accountA}`)).toContain(
      "ask your manager for an invite link",
    );
    expect(await savedAccounts()).toBe(2);
    expect(
      await harness.db.orm.em.fork().count(TelegramMemberSchema, { telegramUserId: String(stranger.id) }),
    ).toBe(0);
  });
});
