import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReceiptImage } from "../../fakes/receipt-images.js";
import {
  type BotApiCall,
  botMembership,
  type FakeGroup,
  forwardedText,
  inGroupChat,
  membersAdded,
  photoMessage,
  textMessage,
  type UploadedFile,
} from "../../fakes/telegram.js";
import type { BankCode } from "../../src/banks/codes.js";
import { startService } from "../../src/compose.js";
import { BranchSchema, TelegramMemberSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { createLogger } from "../../src/logger.js";
import { createInvite } from "../../src/telegram/invites.js";
import { joinByInvite } from "../../src/telegram/members.js";
import {
  claimDueSummaries,
  type DueSummary,
  releaseSummary,
  setSummaryTime,
} from "../../src/telegram/summaries.js";
import { createTenant } from "../support/api.js";
import {
  type BotHarness,
  converse,
  joinedStaff,
  newUser,
  nextReply,
  startBotHarness,
  waitUntil,
} from "../support/bot.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { simulatedBank } from "../support/simulator.js";
import { WAIT_MS, waitFor } from "../support/wait.js";

// Group chats and daily summaries, through the real service and the fake Bot API.

let nextGroupId = -1_001_000_000_000;
const newGroup = (title: string): FakeGroup => ({ id: nextGroupId--, title });

/** The share link of a bank's n-th simulated receipt (each test takes its own, so none is a duplicate). */
function linkOf(bank: BankCode, n: number): string {
  const link = simulatedBank(bank).examples[n]?.shareUrl;
  if (!link) throw new Error(`no share link ${n} for ${bank}`);
  return link;
}

/** Messages the bot sent to (or edited in) the group since `after`. */
function groupCalls(harness: BotHarness, group: FakeGroup, after: number): BotApiCall[] {
  return harness.telegram.calls
    .slice(after)
    .filter(
      (call) =>
        (call.method === "sendMessage" || call.method === "editMessageText") &&
        call.payload.chat_id === group.id,
    );
}

async function groupReply(
  harness: BotHarness,
  group: FakeGroup,
  pattern: RegExp,
  after: number,
): Promise<BotApiCall> {
  let found: BotApiCall | undefined;
  await waitUntil(
    () => {
      found = groupCalls(harness, group, after).find((call) => pattern.test(String(call.payload.text)));
      return found !== undefined;
    },
    `a message in ${group.title} matching ${pattern}`,
    20_000,
    () => JSON.stringify(groupCalls(harness, group, after).map((call) => call.payload.text)),
  );
  return found as BotApiCall;
}

/** Posts in the group and waits for the bot's message there that matches. */
async function postAndWait(
  harness: BotHarness,
  group: FakeGroup,
  update: Parameters<BotHarness["send"]>[0],
  pattern: RegExp,
): Promise<BotApiCall> {
  const after = harness.telegram.calls.length;
  await harness.send(inGroupChat(group, update));
  return groupReply(harness, group, pattern, after);
}

/** The id of the message the bot replied to, if it replied. */
const repliedTo = (call: BotApiCall) =>
  (call.payload.reply_parameters as { message_id?: number } | undefined)?.message_id;

describe("the bot in a branch's group chat", () => {
  let harness: BotHarness;
  beforeAll(async () => {
    harness = await startBotHarness("polling");
  });
  afterAll(() => harness?.close());

  const branchOfGroup = async (group: FakeGroup) =>
    (await harness.db.orm.em.fork().findOne(BranchSchema, { telegramChatId: String(group.id) }))?.id ?? null;

  it("is linked by a manager with /link; a cashier is refused and a stranger gets no answer", async () => {
    const team = await joinedStaff(harness);
    const group = newGroup("Piassa cashiers");
    const stranger = newUser("Stranger");
    const after = harness.telegram.calls.length;
    await harness.send(inGroupChat(group, textMessage(stranger, "/link")));
    const refused = await postAndWait(harness, group, textMessage(team.cashier, "/link"), /managers/);
    expect(refused.payload.text).toBe("This command is for managers.");
    const linked = await postAndWait(harness, group, textMessage(team.manager, "/link"), /Done/);
    expect(linked.payload.text).toContain(`now the group of <b>`);
    expect(linked.payload.text).toContain("privacy mode off");
    expect(groupCalls(harness, group, after)).toHaveLength(2);
    expect(await branchOfGroup(group)).toBe(team.tenant.branchId);
    const again = await postAndWait(harness, group, textMessage(team.manager, "/link"), /already/);
    expect(again.payload.text).toMatch(/^This group is already the group of/);
  });

  it("answers a member's receipt as a reply to it, and nothing else: strangers, chatter, service messages", async () => {
    const team = await joinedStaff(harness);
    const group = newGroup("Bole shop");
    await postAndWait(harness, group, textMessage(team.manager, "/link"), /Done/);
    const otherBranch = await joinedStaff(harness);
    const stranger = newUser("Stranger");
    const after = harness.telegram.calls.length;

    // Silent ones first; the member's receipt after them is answered, so they were all handled by then.
    const silent = [
      inGroupChat(group, textMessage(stranger, linkOf("telebirr", 1))),
      inGroupChat(group, textMessage(otherBranch.cashier, linkOf("telebirr", 2))),
      inGroupChat(group, textMessage(team.cashier, "Tea at 5? I brought the receipts book")),
      inGroupChat(group, textMessage(stranger, "/history")),
      membersAdded(team.manager, group, [newUser("Newcomer")]),
    ];
    for (const update of silent) await harness.send(update);
    // The amount due beside the link works in a group as in a private chat.
    const paid = simulatedBank("telebirr").examples[0]?.receipt.amount ?? 0;
    const receipt = inGroupChat(group, textMessage(team.cashier, `${linkOf("telebirr", 0)} ${paid + 100}`));
    await harness.send(receipt);
    const card = await groupReply(harness, group, /Payment confirmed/, after);
    expect(card.payload.text).toContain("Short by ETB 100.00");
    // The silent updates came from other members, whose messages are not ordered against the cashier's.
    await harness.settle();
    const answered = groupCalls(harness, group, after).filter((call) => call.method === "sendMessage");
    expect(answered.map(repliedTo)).toEqual([receipt.message?.message_id]);

    const records = await harness.db.orm.em.fork().find(VerificationSchema, { branch: team.tenant.branchId });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ success: true, sourceType: "telegram", sourceLabel: "Almaz Test" });
    // The other branch's member and the stranger were not verified anywhere.
    expect(
      await harness.db.orm.em.fork().count(VerificationSchema, { branch: otherBranch.tenant.branchId }),
    ).toBe(0);
  });

  it("verifies a forwarded SMS, points commands and bare references to the private chat", async () => {
    const team = await joinedStaff(harness);
    const group = newGroup("Merkato");
    await postAndWait(harness, group, textMessage(team.manager, "/link"), /Done/);
    const sms = `Dear Customer, you have transferred ETB 500.00. Receipt: ${linkOf("mpesa", 0)}`;
    const forwarded = inGroupChat(group, forwardedText(team.cashier, sms));
    const after = harness.telegram.calls.length;
    await harness.send(forwarded);
    await groupReply(harness, group, /Payment confirmed/, after);
    // The status message, edited into the card, is the reply to the forwarded SMS.
    const status = groupCalls(harness, group, after).find((call) => call.method === "sendMessage");
    expect(status && repliedTo(status)).toBe(forwarded.message?.message_id);

    const history = await postAndWait(
      harness,
      group,
      textMessage(team.manager, "/history 7d"),
      /private chat/,
    );
    expect(history.payload.text).toBe(
      '/history works in a private chat with me: <a href="https://t.me/birrcheck_test_bot">@birrcheck_test_bot</a>',
    );
    for (const command of ["/accounts", "/invite cashier", "/export 7d"]) {
      const pointer = await postAndWait(harness, group, textMessage(team.manager, command), /private chat/);
      expect(pointer.payload.text).toContain(`${command.split(" ")[0]} works in a private chat`);
    }
    const reference = simulatedBank("cbe").examples[0]?.target.transactionNumber ?? "";
    const ask = await postAndWait(harness, group, textMessage(team.cashier, reference), /private chat/);
    expect(ask.payload.text).toMatch(/^I need to ask you about this receipt/);
  });

  it("reads a member's photo before answering: a receipt gets a card, any other photo nothing", async () => {
    const team = await joinedStaff(harness);
    const group = newGroup("Photos");
    await postAndWait(harness, group, textMessage(team.manager, "/link"), /Done/);
    const { reference, receipt } = simulatedBank("mpesa").examples[0] ?? {};
    if (!reference || !receipt) throw new Error("the M-Pesa simulator has an example");
    const render = (lines: string[]) =>
      renderReceiptImage(lines, { width: 720, fontSize: 22, format: "jpeg", quality: 85 });
    const party = harness.telegram.addFile(
      await render(["Happy birthday Selam!", "Cake and coffee at five", "in the back room"]),
      { extension: "jpg" },
    );
    const screen = harness.telegram.addFile(
      await render([
        "# M-PESA",
        `Transaction ID\t${reference}`,
        `Amount\tETB ${receipt.amount.toFixed(2)}`,
        `Sender\t${receipt.payerName}`,
        `Receiver\t${receipt.receiverName}`,
        "Status\tCompleted",
      ]),
      { extension: "jpg" },
    );
    const after = harness.telegram.calls.length;
    await harness.send(inGroupChat(group, photoMessage(team.cashier, party)));
    const posted = inGroupChat(group, photoMessage(team.cashier, screen));
    await harness.send(posted);
    await groupReply(harness, group, /Payment confirmed/, after);
    const sent = groupCalls(harness, group, after).filter((call) => call.method === "sendMessage");
    expect(sent.map(repliedTo)).toEqual([posted.message?.message_id]);
  });

  it("speaks Amharic to a member who chose it, in the group too", async () => {
    const team = await joinedStaff(harness);
    await harness.db.orm.em
      .fork()
      .nativeUpdate(TelegramMemberSchema, { telegramUserId: String(team.manager.id) }, { language: "am" });
    const group = newGroup("Adama");
    const linked = await postAndWait(harness, group, textMessage(team.manager, "/link"), /ተከናውኗል/);
    expect(linked.payload.text).toContain("ግሩፕ");
  });

  it("ends the link with /unlink or when the bot is removed; a group stays with one branch", async () => {
    const team = await joinedStaff(harness);
    const rival = await joinedStaff(harness);
    const group = newGroup("Kazanchis");
    await postAndWait(harness, group, textMessage(team.manager, "/link"), /Done/);
    const taken = await postAndWait(harness, group, textMessage(rival.manager, "/link"), /another branch/);
    expect(taken.payload.text).toMatch(/A manager there must send \/unlink first/);
    const notTheirs = await postAndWait(
      harness,
      group,
      textMessage(rival.manager, "/unlink"),
      /not the group/,
    );
    expect(notTheirs.payload.text).toContain("is not the group of");
    expect(await branchOfGroup(group)).toBe(team.tenant.branchId);

    await postAndWait(harness, group, textMessage(team.manager, "/unlink"), /no longer the group/);
    expect(await branchOfGroup(group)).toBeNull();
    const after = harness.telegram.calls.length;
    await harness.send(inGroupChat(group, textMessage(team.cashier, linkOf("cbebirr", 0))));
    // Linked again by the other branch: its manager's receipt is answered, the first team's cashier's not.
    await postAndWait(harness, group, textMessage(rival.manager, "/link"), /Done/);
    expect(
      groupCalls(harness, group, after).filter((call) => /Payment/.test(String(call.payload.text))),
    ).toEqual([]);

    await harness.send(botMembership(rival.manager, group, "kicked"));
    await waitFor(async () => (await branchOfGroup(group)) === null, "the group to be unlinked");
  });
});

describe("daily summaries", () => {
  let harness: BotHarness;
  beforeAll(async () => {
    harness = await startBotHarness("polling");
  });
  afterAll(() => harness?.close());

  const summariesTo = (userId: number) =>
    harness.telegram
      .callsOf("sendMessage")
      .filter((call) => call.payload.chat_id === userId && String(call.payload.text).startsWith("📊"));

  it("/summary HH:MM|off is for managers; a time already past today sends today's summary at once", async () => {
    const team = await joinedStaff(harness);
    const refused = await converse(
      harness,
      team.cashier,
      textMessage(team.cashier, "/summary 20:00"),
      /managers/,
    );
    expect(refused.payload.text).toBe("This command is for managers.");
    const none = await converse(harness, team.manager, textMessage(team.manager, "/summary"), /no daily/);
    expect(none.payload.text).toMatch(/^You get no daily summary/);
    const usage = await converse(harness, team.manager, textMessage(team.manager, "/summary 25:00"), /Send/);
    expect(usage.payload.text).toMatch(/^Send \/summary followed by a time/);

    // The day's work: a confirmation, the same receipt again (a duplicate), a receipt the bank does not know.
    const link = linkOf("awash", 0);
    await converse(harness, team.cashier, textMessage(team.cashier, link), /Payment confirmed/);
    await converse(harness, team.cashier, textMessage(team.cashier, link), /Already verified/);

    const before = harness.telegram.calls.length;
    const set = await converse(harness, team.manager, textMessage(team.manager, "/summary 00:00"), /Done/);
    expect(set.payload.text).toBe(
      "Done: every day at 00:00 (Addis Ababa time) I will send you the branch's summary of the day.",
    );
    const summary = await nextReply(harness, team.manager, /^📊/, before);
    const text = String(summary.payload.text);
    expect(text).toContain("✅ Confirmed: 1");
    expect(text).toContain("♻️ Already used: 1");
    expect(text).toMatch(/Awash Bank: ETB [\d,]+\.\d{2} \(1\)/);
    // The simulator's receipts are months old: the confirmation was stale when checked, the duplicate is used.
    expect(text).toMatch(
      /⚠️ Flagged receipts:\n.*Almaz Test: paid \d+ days before it was checked\n.*Almaz Test: already used$/,
    );
    const now = await converse(harness, team.manager, textMessage(team.manager, "/summary"), /You get/);
    expect(now.payload.text).toMatch(/daily summary at 00:00/);
  });

  it("writes the summary in the manager's language", async () => {
    const team = await joinedStaff(harness);
    await harness.db.orm.em
      .fork()
      .nativeUpdate(TelegramMemberSchema, { telegramUserId: String(team.manager.id) }, { language: "am" });
    const before = harness.telegram.calls.length;
    const set = await converse(harness, team.manager, textMessage(team.manager, "/summary 00:00"), /ተከናውኗል/);
    expect(set.payload.text).toContain("00:00");
    const summary = await nextReply(harness, team.manager, /^📊/, before);
    expect(summary.payload.text).toContain("ዛሬ ምንም ማረጋገጫ የለም።");
  });

  it("sends each day's summary once: not again after a restart, nor by a second instance", async () => {
    const team = await joinedStaff(harness);
    const before = harness.telegram.calls.length;
    await converse(harness, team.manager, textMessage(team.manager, "/summary 00:00"), /Done/);
    const summary = await nextReply(harness, team.manager, /^📊/, before);
    expect(summary.payload.text).toContain("No verifications today.");

    await harness.restart();
    const second = await startService(
      harness.config,
      createLogger("silent", new Writable({ write: (_c, _e, done) => done() })),
    );
    // Both instances check at start; stopping an instance waits for the check it runs, so once both have
    // stopped, whatever they would (wrongly) send has been sent.
    await second.close();
    await harness.restart();
    expect(summariesTo(team.manager.id)).toHaveLength(1);
    // Off stops it; the member row keeps the day it was sent.
    await converse(harness, team.manager, textMessage(team.manager, "/summary off"), /no more/);
    const member = await harness.db.orm.em
      .fork()
      .findOneOrFail(TelegramMemberSchema, { telegramUserId: String(team.manager.id) });
    expect(member.summaryMinute).toBeNull();
  });
});

describe("claiming a day's summary", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it("gives each due summary to exactly one of several instances checking at once, once a day", async () => {
    const tenant = await createTenant(db);
    const invite = await createInvite(db.orm.em.fork(), tenant.branchId, "manager");
    const joined = await joinByInvite(db.orm.em.fork(), invite.code, {
      telegramUserId: "424242",
      name: "Hana",
    });
    if (joined.kind !== "joined") throw new Error(joined.kind);
    await setSummaryTime(db.orm.em.fork(), "424242", 18 * 60);
    const at = (iso: string) => new Date(iso);

    const early = await claimDueSummaries(db.orm.em.fork(), at("2026-11-25T17:59:00+03:00"));
    expect(early).toEqual([]);
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => claimDueSummaries(db.orm.em.fork(), at("2026-11-25T18:00:30+03:00"))),
    );
    expect(claims.flat()).toEqual([
      expect.objectContaining({ telegramUserId: "424242", day: "2026-11-25", branchId: tenant.branchId }),
    ]);
    expect(await claimDueSummaries(db.orm.em.fork(), at("2026-11-25T23:59:00+03:00"))).toEqual([]);
    // Given back (it could not be sent), it is claimed again; the next day has its own.
    await releaseSummary(db.orm.em.fork(), claims.flat()[0] as DueSummary);
    expect(await claimDueSummaries(db.orm.em.fork(), at("2026-11-25T23:59:00+03:00"))).toHaveLength(1);
    // 21:30 UTC is already the next day in Addis Ababa, but before 18:00 there.
    expect(await claimDueSummaries(db.orm.em.fork(), at("2026-11-25T21:30:00Z"))).toEqual([]);
    expect(await claimDueSummaries(db.orm.em.fork(), at("2026-11-26T15:00:00Z"))).toEqual([
      expect.objectContaining({ day: "2026-11-26" }),
    ]);
  });
});

describe("/export in the bot", () => {
  let harness: BotHarness;
  beforeAll(async () => {
    harness = await startBotHarness("polling");
  });
  afterAll(() => harness?.close());

  /** RFC 4180 records of a CSV text (written here, apart from the exporter's encoder). */
  function parseCsv(text: string): string[][] {
    const records: string[][] = [];
    let record: string[] = [];
    let field = "";
    let quoted = false;
    for (let i = 0; i < text.length; i += 1) {
      const char = text[i];
      if (quoted) {
        if (char === '"' && text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else if (char === '"') quoted = false;
        else field += char;
      } else if (char === '"') quoted = true;
      else if (char === ",") {
        record.push(field);
        field = "";
      } else if (char === "\r" && text[i + 1] === "\n") {
        record.push(field);
        records.push(record);
        record = [];
        field = "";
        i += 1;
      } else field += char;
    }
    return records;
  }

  it("sends managers the branch's history as a CSV document; cashiers and unknown periods are refused", async () => {
    const team = await joinedStaff(harness);
    const refused = await converse(harness, team.cashier, textMessage(team.cashier, "/export"), /managers/);
    expect(refused.payload.text).toBe("This command is for managers.");
    const usage = await converse(harness, team.manager, textMessage(team.manager, "/export 5y"), /Send/);
    expect(usage.payload.text).toBe("Send /export followed by 7d, 30d, 3m or 12m.");
    const empty = await converse(harness, team.manager, textMessage(team.manager, "/export 7d"), /no verif/);
    expect(empty.payload.text).toBe("There are no verifications in that period.");

    const em = harness.db.orm.em.fork();
    const payer = 'Abebe, "Abe"\nKebede';
    em.create(VerificationSchema, {
      branch: team.tenant.branchId,
      bank: "telebirr",
      transactionNumber: "CHQ0TEST01",
      success: true,
      exists: true,
      status: "completed",
      amount: 1500,
      currency: "ETB",
      payerName: payer,
      receiverName: "አበበ ከበደ",
      receiverAccount: "251911000000",
      verificationMethod: "reference",
      sourceType: "api",
      sourceLabel: "Till 1",
    });
    await em.flush();
    await converse(
      harness,
      team.cashier,
      textMessage(team.cashier, linkOf("cbebirr", 0)),
      /Payment confirmed/,
    );

    const before = harness.telegram.calls.length;
    await harness.send(textMessage(team.manager, "/export 7d"));
    const sent = await harness.telegram.waitForCall(
      "sendDocument",
      (payload) => payload.chat_id === String(team.manager.id) || payload.chat_id === team.manager.id,
      { after: before, timeoutMs: WAIT_MS },
    );
    const document = sent.payload.document as UploadedFile;
    expect(document.file_name).toMatch(/^verifications-Main-7d-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(sent.payload.caption).toBe("Main: verifications of the last 7d, 2 rows.");
    // In Amharic the caption is too; the file is the same.
    await harness.db.orm.em
      .fork()
      .nativeUpdate(TelegramMemberSchema, { telegramUserId: String(team.manager.id) }, { language: "am" });
    const later = harness.telegram.calls.length;
    await harness.send(textMessage(team.manager, "/export 7d"));
    const amharic = await harness.telegram.waitForCall(
      "sendDocument",
      (payload) => String(payload.chat_id) === String(team.manager.id),
      { after: later, timeoutMs: WAIT_MS },
    );
    expect(amharic.payload.caption).toBe("Main፦ ያለፉት 7d ማረጋገጫዎች፣ 2 ረድፎች።");
    expect((amharic.payload.document as UploadedFile).bytes.toString("utf8")).toBe(
      (sent.payload.document as UploadedFile).bytes.toString("utf8"),
    );
    const text = document.bytes.toString("utf8");
    expect(text.startsWith("\uFEFFid,created_at,bank,transaction_number,status,amount,")).toBe(true);
    const [header, newest, oldest] = parseCsv(text.slice(1));
    expect(header).toEqual([
      "id",
      "created_at",
      "bank",
      "transaction_number",
      "status",
      "amount",
      "currency",
      "payer_name",
      "receiver_name",
      "receiver_account",
      "source_type",
      "source_label",
      "duplicate_of",
    ]);
    expect(newest?.slice(2, 5)).toEqual(["cbebirr", expect.any(String), "confirmed"]);
    expect(newest?.[10]).toBe("telegram");
    expect(oldest).toEqual([
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/),
      "telebirr",
      "CHQ0TEST01",
      "confirmed",
      "1500.00",
      "ETB",
      payer,
      "አበበ ከበደ",
      "251911000000",
      "api",
      "Till 1",
      "",
    ]);
  });
});
