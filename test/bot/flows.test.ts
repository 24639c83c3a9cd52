import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderQrReceipt } from "../../fakes/qr-images.js";
import { renderReceiptImage } from "../../fakes/receipt-images.js";
import {
  type BotApiCall,
  callbackQuery,
  documentMessage,
  type FakeUser,
  forwardedText,
  photoMessage,
  textMessage,
} from "../../fakes/telegram.js";
import { createAccount } from "../../src/accounts/saved-accounts.js";
import { createBranch } from "../../src/admin/businesses.js";
import { LEGACY_RECEIPTS } from "../../src/banks/cbe/imitation.js";
import type { BankCode } from "../../src/banks/codes.js";
import { InviteCodeSchema, TelegramMemberSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { createInvite } from "../../src/telegram/invites.js";
import {
  type BotHarness,
  converse,
  join,
  joinedStaff,
  newUser,
  nextReply,
  type Staff,
  startBotHarness,
  waitUntil,
} from "../support/bot.js";
import { firstExample, simulatedBank } from "../support/simulator.js";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/receipts");
const telebirrSms = () => readFile(path.join(FIXTURES, "telebirr/sms-transferred.txt"), "utf8");
const cbeLegacy = LEGACY_RECEIPTS.find((receipt) => receipt.reference === "FT26140P01YB");
if (!cbeLegacy) throw new Error("the CBE simulator seeds FT26140P01YB");

/** The share link of a bank's first simulated receipt. */
function linkOf(bank: BankCode): string {
  const link = firstExample(bank).shareUrl;
  if (!link) throw new Error(`no share link for ${bank}`);
  return link;
}

/** The inline keyboard of a call, as [text, callback_data] rows. */
function buttons(call: { payload: Record<string, unknown> }): Array<Array<[string, string]>> {
  const markup = call.payload.reply_markup as
    | { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }
    | undefined;
  return (markup?.inline_keyboard ?? []).map((row) => row.map((b) => [b.text, b.callback_data]));
}

function button(call: { payload: Record<string, unknown> }, label: RegExp): string {
  const found = buttons(call)
    .flat()
    .find(([text]) => label.test(text));
  if (!found) throw new Error(`no button ${label} in ${JSON.stringify(buttons(call))}`);
  return found[1];
}

describe.each(["polling", "webhook"] as const)("the Telegram bot (%s)", (mode) => {
  let harness: BotHarness;
  let staff: Staff;
  beforeAll(async () => {
    harness = await startBotHarness(mode);
    staff = await joinedStaff(harness);
  });
  afterAll(() => harness?.close());

  const history = (branchId: number) =>
    harness.db.orm.em.fork().find(VerificationSchema, { branch: branchId }, { orderBy: { id: "asc" } });

  it(
    mode === "polling"
      ? "connects: getMe, command menu, polling"
      : "connects: getMe, command menu, setWebhook",
    () => {
      expect(harness.telegram.callsOf("getMe").length).toBeGreaterThan(0);
      expect(harness.telegram.callsOf("setMyCommands")[0]?.payload.commands).toContainEqual(
        expect.objectContaining({ command: "help" }),
      );
      if (mode === "webhook") {
        expect(harness.telegram.callsOf("setWebhook")[0]?.payload).toMatchObject({
          url: "https://bot.example.com/telegram/webhook",
          secret_token: "test-webhook-secret_1",
        });
      } else {
        expect(harness.telegram.callsOf("getUpdates").length).toBeGreaterThan(0);
      }
    },
  );

  describe("joining", () => {
    it("tells an outsider how to join, and does nothing else", async () => {
      const stranger = newUser("Stranger");
      const reply = await converse(harness, stranger, textMessage(stranger, linkOf("telebirr")), /invite/);
      expect(reply.payload.text).toContain("ask your manager for an invite link");
      const members = await harness.db.orm.em
        .fork()
        .count(TelegramMemberSchema, { telegramUserId: String(stranger.id) });
      expect(members).toBe(0);
    });

    it("joins by a one-time invite; used, unknown and expired codes are refused", async () => {
      const invite = await createInvite(harness.db.orm.em.fork(), staff.tenant.branchId, "cashier");
      const first = newUser("First");
      const second = newUser("Second");
      await converse(
        harness,
        first,
        textMessage(first, `/start ${invite.code}`),
        /Welcome! You joined <b>Main<\/b>/,
      );
      await converse(harness, second, textMessage(second, `/start ${invite.code}`), /already used/);
      await converse(harness, second, textMessage(second, "/start nosuchcode123"), /not valid/);
      const expired = await createInvite(
        harness.db.orm.em.fork(),
        staff.tenant.branchId,
        "cashier",
        new Date(Date.now() - 8 * 86_400_000),
      );
      await converse(harness, second, textMessage(second, `/start ${expired.code}`), /expired/);
      await converse(
        harness,
        first,
        textMessage(first, `/start ${expired.code}`),
        /already a member of Main/,
      );
      const stored = await harness.db.orm.em.fork().findOneOrFail(InviteCodeSchema, { code: invite.code });
      expect(stored.usedByTelegramUserId).toBe(String(first.id));
    });

    it("gives managers their command menu, and /leave takes a member out", async () => {
      const leaver = newUser("Leaver");
      const invite = await createInvite(harness.db.orm.em.fork(), staff.tenant.branchId, "manager");
      await converse(harness, leaver, textMessage(leaver, `/start ${invite.code}`), /Welcome/);
      const menu = harness.telegram
        .callsOf("setMyCommands")
        .find((call) => JSON.stringify(call.payload.scope ?? "").includes(String(leaver.id)));
      expect(menu?.payload.commands).toContainEqual(expect.objectContaining({ command: "history" }));
      await converse(harness, leaver, textMessage(leaver, "/leave"), /You left Main/);
      await converse(harness, leaver, textMessage(leaver, "/history"), /invite/);
    });
  });

  describe("verifying", () => {
    it("verifies a forwarded bank SMS by its link: status steps, then the card, recorded as telegram", async () => {
      const team = await joinedStaff(harness);
      const after = harness.telegram.calls.length;
      await harness.send(forwardedText(team.cashier, await telebirrSms()));
      const card = await nextReply(harness, team.cashier, /Payment confirmed/, after);
      const texts = harness.telegram.calls
        .slice(after)
        .filter((c) => c.payload.chat_id === team.cashier.id)
        .map((c) => `${c.method}:${c.payload.text ?? c.payload.action}`);
      expect(texts.slice(0, 3)).toEqual([
        "sendChatAction:typing",
        "sendMessage:Working on it…",
        "editMessageText:Checking with Telebirr…",
      ]);
      expect(card.method).toBe("editMessageText");
      expect(card.payload.text).toContain("Amount: <b>ETB 60.00</b>");
      expect(card.payload.text).toContain("Payer: Dawit Mekonnen Bekele");
      expect(card.payload.text).toContain("Date: 17 Jun 2026, 18:14");
      expect(card.payload.text).toContain("Reference: <code>DFH51OFIED</code>");
      const [record] = await history(team.tenant.branchId);
      expect(record).toMatchObject({
        success: true,
        bank: "telebirr",
        sourceType: "telegram",
        sourceLabel: "Almaz Test",
        verificationMethod: "official_link",
      });
    });

    it("a message delivered again (a crash before the reply) gets its confirmation again, not a duplicate", async () => {
      const team = await joinedStaff(harness);
      // Telegram delivers the same message (chat and message id) again when the bot did not acknowledge it.
      const message = textMessage(team.cashier, linkOf("telebirr"));
      const first = await converse(harness, team.cashier, message, /Payment confirmed/);
      const again = await converse(harness, team.cashier, message, /Payment confirmed|Already verified/);
      expect(again.payload.text).toContain("Payment confirmed");
      expect(again.payload.text).toContain("Reference: <code>DFH51OFIED</code>");
      expect(first.payload.text).toContain("Reference: <code>DFH51OFIED</code>");
      const records = await history(team.tenant.branchId);
      expect(records.map((r) => [r.success, r.sourceLabel])).toEqual([[true, "Almaz Test"]]);
    });

    it("passes over a feedback link and takes the bank's; the same receipt again is a duplicate", async () => {
      const team = await joinedStaff(harness);
      const sms = `Rate us https://survey.example.com/r/1 — receipt ${linkOf("mpesa")}`;
      await converse(harness, team.cashier, textMessage(team.cashier, sms), /Payment confirmed/);
      const again = await converse(harness, team.manager, textMessage(team.manager, sms), /Already verified/);
      expect(again.payload.text).toMatch(
        /verified on \d{1,2} \w{3} \d{4}, \d\d:\d\d by Almaz Test \(Telegram\)/,
      );
      const records = await history(team.tenant.branchId);
      expect(records.map((r) => [r.success, r.sourceLabel])).toEqual([
        [true, "Almaz Test"],
        [false, "Bekele Test"],
      ]);
    });

    it("shows a member their own latest results with /recent", async () => {
      const team = await joinedStaff(harness);
      await converse(harness, team.cashier, textMessage(team.cashier, linkOf("mpesa")), /Payment confirmed/);
      const mine = await converse(harness, team.cashier, textMessage(team.cashier, "/recent"), /Your latest/);
      expect(String(mine.payload.text)).toContain(`<code>${firstExample("mpesa").reference}</code>`);
      await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/recent"),
        /not verified anything yet/,
      );
    });

    it("waits out a Telegram flood limit instead of losing the reply", async () => {
      harness.telegram.failNext("sendMessage", {
        error_code: 429,
        description: "Too Many Requests: retry after 1",
        parameters: { retry_after: 1 },
      });
      await converse(harness, staff.cashier, textMessage(staff.cashier, "/help"), /Forward me/);
    });

    it("answers not found for a transaction the bank does not know", async () => {
      const reply = await converse(
        harness,
        staff.cashier,
        textMessage(staff.cashier, "https://transactioninfo.ethiotelecom.et/receipt/ZZZ9ZZZ9ZZ"),
        /Not found/,
      );
      expect(reply.payload.text).toContain("Telebirr does not know the transaction <code>ZZZ9ZZZ9ZZ</code>");
    });

    it("warns when the money went to an account that is not one of the branch's saved accounts", async () => {
      const team = await joinedStaff(harness);
      await createAccount(harness.db.orm.em.fork(), team.tenant.branchId, {
        bank: "telebirr",
        accountNumber: "251911223344",
        label: "Till",
        isPrimary: true,
      });
      const reply = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, linkOf("telebirr")),
        /not this branch's/,
      );
      expect(reply.payload.text).toContain("saved Telebirr accounts");
    });

    it("asks the bank and the receiving account for a bare reference, primary account first", async () => {
      const team = await joinedStaff(harness);
      const em = harness.db.orm.em.fork();
      await createAccount(em, team.tenant.branchId, {
        bank: "cbe",
        accountNumber: "1000999999999",
        label: "Other",
        isPrimary: false,
      });
      await createAccount(em, team.tenant.branchId, {
        bank: "cbe",
        accountNumber: cbeLegacy.fullAccount,
        label: "Main till",
        isPrimary: true,
      });
      const question = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, "FT26140P01YB"),
        /Which bank/,
      );
      expect(
        buttons(question)
          .flat()
          .map(([text]) => text),
      ).toContain("Commercial Bank of Ethiopia");
      const accountQuestion = await press(
        team.cashier,
        question,
        /Commercial Bank/,
        /Which Commercial Bank of Ethiopia account/,
      );
      expect(buttons(accountQuestion).map((row) => row[0]?.[0])).toEqual([
        `Main till · ${cbeLegacy.fullAccount}`,
        "Other · 1000999999999",
      ]);
      const card = await press(team.cashier, accountQuestion, /Main till/, /Payment confirmed|⚠️|❌/);
      expect(card.payload.text).toContain("Payment confirmed");
      expect((await history(team.tenant.branchId))[0]).toMatchObject({
        bank: "cbe",
        transactionNumber: "FT26140P01YB",
        verificationMethod: "official",
      });
    });

    it("takes a typed account number, and the payer's phone for CBE Birr", async () => {
      const team = await joinedStaff(harness);
      const question = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, "FT26140P01YB"),
        /Which bank/,
      );
      await press(team.cashier, question, /Commercial Bank/, /Type the account number/);
      await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, cbeLegacy.fullAccount),
        /Payment confirmed/,
      );

      const birr = firstExample("cbebirr");
      const bankQuestion = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, birr.target.transactionNumber),
        /Which bank/,
      );
      await press(team.cashier, bankQuestion, /CBE Birr/, /payer's phone/);
      await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, birr.target.account ?? ""),
        /Payment confirmed/,
      );
    });

    it("leaves a question on /cancel, and a stale button then says so", async () => {
      const question = await converse(
        harness,
        staff.cashier,
        textMessage(staff.cashier, "DFH51OFIED"),
        /Which bank/,
      );
      await converse(harness, staff.cashier, textMessage(staff.cashier, "/cancel"), /^Cancelled\.$/);
      const after = harness.telegram.calls.length;
      await harness.send(
        callbackQuery(staff.cashier, button(question, /Telebirr/), {
          message_id: await sentMessageId(question),
          chat_id: staff.cashier.id,
        }),
      );
      const answer = await harness.telegram.waitForCall(
        "answerCallbackQuery",
        (p) => String(p.text).includes("no longer open"),
        { after },
      );
      expect(answer).toBeDefined();
      await converse(harness, staff.cashier, textMessage(staff.cashier, "/cancel"), /nothing to cancel/);
    });

    it("goes on with an open question after a restart", async () => {
      const team = await joinedStaff(harness);
      const question = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, "DFH51OFIED"),
        /Which bank/,
      );
      await harness.restart();
      const card = await press(team.cashier, question, /Telebirr/, /Payment confirmed|⚠️|❌/);
      expect(card.payload.text).toContain("Payment confirmed");
    });

    it("verifies a PDF receipt", async () => {
      const team = await joinedStaff(harness);
      const pdf = await mpesaPdf(simulatedBank("mpesa").examples[1]?.reference ?? "");
      const file = harness.telegram.addFile(pdf, { extension: "pdf" });
      const card = await converse(
        harness,
        team.cashier,
        documentMessage(team.cashier, file, { file_name: "receipt.pdf", mime_type: "application/pdf" }),
        /Payment confirmed|⚠️|❌/,
      );
      expect(card.payload.text).toContain("Payment confirmed");
      expect((await history(team.tenant.branchId))[0]).toMatchObject({
        bank: "mpesa",
        verificationMethod: "receipt_pdf",
      });
    });

    it("asks for the receiving account a CBE PDF does not show, then verifies the PDF", async () => {
      const team = await joinedStaff(harness);
      const response = await fetch(`${harness.sim.url}/apps.cbe.com.et:100/?id=FT26140P01YB60536171`);
      const file = harness.telegram.addFile(new Uint8Array(await response.arrayBuffer()), {
        extension: "pdf",
      });
      await converse(
        harness,
        team.cashier,
        documentMessage(team.cashier, file, { file_name: "FT26140P01YB.pdf", mime_type: "application/pdf" }),
        /Type the account number/,
      );
      const card = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, cbeLegacy.fullAccount),
        /Payment confirmed|⚠️|❌/,
      );
      expect(card.payload.text).toContain("Payment confirmed");
      expect((await history(team.tenant.branchId))[0]).toMatchObject({
        bank: "cbe",
        transactionNumber: "FT26140P01YB",
        verificationMethod: "receipt_pdf",
      });
    });

    it("verifies a photo of a receipt by OCR", async () => {
      const team = await joinedStaff(harness);
      const image = await renderReceiptImage(mpesaScreen(), {
        width: 720,
        fontSize: 22,
        format: "jpeg",
        quality: 85,
      });
      const file = harness.telegram.addFile(image, { extension: "jpg" });
      const card = await nextAfter(
        harness,
        team.cashier,
        photoMessage(team.cashier, file),
        /Payment confirmed|⚠️|❌/,
        50_000,
      );
      expect(card.payload.text).toContain("Payment confirmed");
      expect((await history(team.tenant.branchId))[0]).toMatchObject({
        bank: "mpesa",
        verificationMethod: "receipt_ocr",
      });
    });

    it("asks about a reference read from a photo that the bank does not know, never saying not found", async () => {
      const team = await joinedStaff(harness);
      // Unknown to the bank; every character but the first has a look-alike (0/O, 8/B, 5/S, 1/I, 2/Z).
      const screen = mpesaScreen().map((line) =>
        line.startsWith("Transaction ID") ? "Transaction ID\tU0O8B5S1IZ" : line,
      );
      const image = await renderReceiptImage(screen, {
        width: 720,
        fontSize: 22,
        format: "jpeg",
        quality: 85,
      });
      const photo = () => photoMessage(team.cashier, harness.telegram.addFile(image, { extension: "jpg" }));
      const card = await nextAfter(harness, team.cashier, photo(), /Payment confirmed|⚠️|❌|🔎/, 50_000);
      const [record] = await history(team.tenant.branchId);
      expect(record).toMatchObject({ bank: "mpesa", verificationMethod: "receipt_ocr", exists: false });
      const text = String(card.payload.text);
      expect(text).toContain("Not confirmed yet");
      expect(text).toContain(`I read <code>${record?.transactionNumber}</code> on the photo`);
      expect(text).not.toMatch(/Not found/);
      expect(
        buttons(card)
          .flat()
          .map(([label]) => label),
      ).toEqual(["✅ Yes, that's it", "✏️ Type it"]);

      // "Yes": the reference is the cashier's now, and the bank's answer stands, with no second lookup.
      const confirmed = await press(team.cashier, card, /Yes/, /Not found/);
      expect(String(confirmed.payload.text)).toContain(
        `does not know the transaction <code>${record?.transactionNumber}</code>`,
      );
      expect(await history(team.tenant.branchId)).toHaveLength(1);

      // "Type it" on the same card of another photo: the bot asks for the reference, link or SMS.
      const again = await nextAfter(harness, team.cashier, photo(), /Not confirmed yet/, 50_000);
      await press(team.cashier, again, /Type it/, /Send the reference as printed/);
    });

    it.each([
      ["cbe", () => firstExample("cbe").shareUrl ?? ""],
      [
        "amhara",
        () => JSON.stringify({ transactionId: firstExample("amhara").reference, creditAccountNo: "ETB0001" }),
      ],
      [
        "telebirr",
        () =>
          Buffer.from(Buffer.from(`invoice ${firstExample("telebirr").reference}`).toString("hex")).toString(
            "base64",
          ),
      ],
    ] as const)("verifies a photo of a %s receipt's QR code, read before any OCR", async (bank, content) => {
      const team = await joinedStaff(harness);
      const image = await renderQrReceipt(content(), {
        rotateDeg: 5,
        blurPx: 1,
        shadow: 0.3,
        format: "jpeg",
        quality: 50,
      });
      const file = harness.telegram.addFile(image, { extension: "jpg" });
      const card = await nextAfter(
        harness,
        team.cashier,
        photoMessage(team.cashier, file),
        /Payment confirmed|⚠️|❌/,
        10_000,
      );
      expect(card.payload.text).toContain("Payment confirmed");
      expect((await history(team.tenant.branchId))[0]).toMatchObject({
        bank,
        verificationMethod: "receipt_qr",
      });
    });

    it("says whether the payment matches the amount due written beside the link or under the photo", async () => {
      const team = await joinedStaff(harness);
      const paid = firstExample("telebirr").receipt.amount;
      const matches = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, `${linkOf("telebirr")} ${paid}`),
        /Payment confirmed/,
      );
      expect(matches.payload.text).toContain("Amount matches");
      const image = await renderQrReceipt(linkOf("mpesa"));
      const file = harness.telegram.addFile(image, { extension: "png" });
      const due = firstExample("mpesa").receipt.amount + 100;
      const short = await nextAfter(
        harness,
        team.cashier,
        photoMessage(team.cashier, file, `${due} birr`),
        /Payment confirmed|⚠️|❌/,
        10_000,
      );
      expect(short.payload.text).toContain("Short by");
      expect(short.payload.text).toContain("Payment confirmed");
    });

    it("flags a payment older than the branch's limit, which a manager sets with /settings", async () => {
      const team = await joinedStaff(harness);
      const shown = await converse(harness, team.manager, textMessage(team.manager, "/settings"), /stale/);
      expect(shown.payload.text).toContain("more than 24 hours");
      // The simulator's receipts are months old: flagged under the default limit of 24 hours.
      const flagged = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, linkOf("dashen")),
        /Payment confirmed/,
      );
      expect(flagged.payload.text).toMatch(
        /Paid \d+ days ago<\/b>, longer ago than this branch's limit of 24 hours/,
      );
      const refused = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, "/settings stale off"),
        /managers/,
      );
      expect(refused.payload.text).toBe("This command is for managers.");
      const usage = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/settings stale soon"),
        /Send/,
      );
      expect(usage.payload.text).toContain("/settings stale");
      const off = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/settings stale off"),
        /Done/,
      );
      expect(off.payload.text).toContain("will not be flagged");
      const quiet = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, linkOf("zemen")),
        /Payment confirmed/,
      );
      expect(quiet.payload.text).not.toContain("ago");
      const set = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/settings stale 400d"),
        /Send/,
      );
      expect(set.payload.text).toContain("/settings stale");
      const week = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/settings stale 7d"),
        /Done/,
      );
      expect(week.payload.text).toContain("older than 7 days");
    });

    it("tells a cashier when another branch of the business already confirmed the receipt", async () => {
      const team = await joinedStaff(harness);
      const other = await createBranch(harness.db.orm.em.fork(), team.tenant.businessId, "Bole");
      const boleCashier = newUser("Selam");
      await join(harness, boleCashier, other.id, "cashier");
      const link = linkOf("cbebirr");
      const first = await converse(harness, boleCashier, textMessage(boleCashier, link), /Payment confirmed/);
      expect(first.payload.text).not.toContain("Already checked at");
      const second = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, link),
        /Payment confirmed/,
      );
      expect(second.payload.text).toMatch(/Already checked at Bole<\/b> on \d{1,2} [A-Z][a-z]{2} \d{4}/);
      // Not a duplicate by contract: both branches have their own confirmed record.
      expect((await history(team.tenant.branchId))[0]).toMatchObject({ success: true });
      expect((await history(other.id))[0]).toMatchObject({ success: true });
    });

    it("pushes a flagged outcome to managers with /alerts on, with a button to the history entry", async () => {
      const team = await joinedStaff(harness);
      const on = await converse(harness, team.manager, textMessage(team.manager, "/alerts on"), /Done/);
      expect(on.payload.text).toContain("will be sent to you");
      const refused = await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, "/alerts on"),
        /managers/,
      );
      expect(refused.payload.text).toBe("This command is for managers.");
      await converse(harness, team.manager, textMessage(team.manager, "/settings stale off"), /Done/);
      const link = linkOf("awash");
      await converse(harness, team.cashier, textMessage(team.cashier, link), /Payment confirmed/);
      // A fresh confirmation within the limit is no alert; the same receipt again is a duplicate, which is.
      const before = harness.telegram.calls.length;
      await converse(harness, team.cashier, textMessage(team.cashier, link), /Already verified/);
      const alert = await nextReply(harness, team.manager, /Almaz Test checked a receipt/, before);
      expect(alert.payload.text).toContain("Already verified");
      expect(
        harness.telegram.calls
          .slice(before)
          .filter((call) => /checked a receipt/.test(String(call.payload.text))).length,
      ).toBe(1);
      const entry = await converse(
        harness,
        team.manager,
        callbackQuery(team.manager, button(alert, /Open in history/), {
          message_id: 1,
          chat_id: team.manager.id,
        }),
        /Checked by/,
      );
      expect(entry.payload.text).toContain("Almaz");
      await converse(harness, team.manager, textMessage(team.manager, "/alerts off"), /Done/);
    });

    it("answers a photo of Dashen's in-app code with what to send instead", async () => {
      const team = await joinedStaff(harness);
      const image = await renderQrReceipt("superappreceipt_88123.a9F3kLq", { format: "jpeg", quality: 60 });
      const file = harness.telegram.addFile(image, { extension: "jpg" });
      const reply = await nextAfter(
        harness,
        team.cashier,
        photoMessage(team.cashier, file),
        /Dashen|❌|⚠️/,
        10_000,
      );
      expect(reply.payload.text).toContain("in-app QR code cannot be checked");
      expect(await history(team.tenant.branchId)).toEqual([]);
    });

    it("stops at the quota with a clear message", async () => {
      const team = await joinedStaff(harness, { quota: 1 });
      await converse(
        harness,
        team.cashier,
        textMessage(team.cashier, linkOf("telebirr")),
        /Payment confirmed/,
      );
      const reply = await converse(harness, team.cashier, textMessage(team.cashier, linkOf("mpesa")), /⛔/);
      expect(reply.payload.text).toContain("used this month's verifications");
      expect((await history(team.tenant.branchId)).length).toBe(1);
    });

    it("says so when the bank is down, and nothing is recorded", async () => {
      const team = await joinedStaff(harness);
      harness.sim.setMode("zemen", { kind: "error", status: 503 });
      try {
        const reply = await converse(harness, team.cashier, textMessage(team.cashier, linkOf("zemen")), /🏦/);
        expect(reply.payload.text).toContain("Zemen Bank is not answering right now");
      } finally {
        harness.sim.setMode("zemen", { kind: "normal" });
      }
      expect(await history(team.tenant.branchId)).toEqual([]);
    });

    it.each([
      [
        "a file over 10 MB",
        { bytes: new Uint8Array(16), fileSize: 11 * 1024 * 1024 },
        { file_name: "big.pdf", mime_type: "application/pdf" },
        /over 10 MB/,
      ],
      [
        "a Word document",
        { bytes: new Uint8Array([0x50, 0x4b, 3, 4, 1, 2]), fileSize: undefined },
        {
          file_name: "receipt.docx",
          mime_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        },
        /PDF receipts and photos/,
      ],
      [
        "a text file calling itself a PDF",
        { bytes: new TextEncoder().encode("not a pdf at all"), fileSize: undefined },
        { file_name: "receipt.pdf", mime_type: "application/pdf" },
        /file of type: pdf/,
      ],
      [
        "a broken image",
        { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 1, 2, 3]), fileSize: undefined },
        { file_name: "photo.jpg", mime_type: "image/jpeg" },
        /image could not be read/,
      ],
    ])("refuses %s with a helpful reply", async (_name, content, meta, pattern) => {
      const file = harness.telegram.addFile(
        content.bytes,
        content.fileSize ? { fileSize: content.fileSize } : {},
      );
      await converse(harness, staff.cashier, documentMessage(staff.cashier, file, meta), pattern);
    });

    it("answers links of unknown hosts and chatter helpfully", async () => {
      await converse(
        harness,
        staff.cashier,
        textMessage(staff.cashier, "see https://evil.example.com/receipt/FT26140P01YB please"),
        /not a receipt link of a bank I know/,
      );
      await converse(
        harness,
        staff.cashier,
        textMessage(staff.cashier, "hello there, how are you?"),
        /I did not find a receipt/,
      );
    });

    it("repeats what a receipt without a reference says, and asks for the link", async () => {
      const page =
        "telebirr receipt\nPayer Name\nAbebe Bekele\nCredited Party name\nSara Tadesse\n500.00 Birr\n15-06-2026 14:30:00";
      const reply = await converse(
        harness,
        staff.cashier,
        textMessage(staff.cashier, page),
        /looks like a Telebirr receipt, but it shows no transaction number or receipt link/,
      );
      expect(reply.payload.parse_mode).toBe("HTML");
      expect(reply.payload.text).toContain(
        "Amount: <b>ETB 500.00</b>\nPayer: Abebe Bekele\nReceiver: Sara Tadesse",
      );
    });
  });

  describe("manager commands", () => {
    it("refuses them to cashiers", async () => {
      for (const command of ["/history", "/accounts", "/invite cashier"]) {
        await converse(
          harness,
          staff.cashier,
          textMessage(staff.cashier, command),
          /^This command is for managers\.$/,
        );
      }
      const after = harness.telegram.calls.length;
      await harness.send(
        callbackQuery(staff.cashier, "acc:add", { message_id: 1, chat_id: staff.cashier.id }),
      );
      await harness.telegram.waitForCall(
        "answerCallbackQuery",
        (p) => p.text === "This command is for managers.",
        { after },
      );
    });

    it("/invite gives a deep link that lets a new member join", async () => {
      const reply = await converse(
        harness,
        staff.manager,
        textMessage(staff.manager, "/invite cashier"),
        /Invite for a new cashier/,
      );
      const code = /start=([A-Za-z0-9_-]+)/.exec(String(reply.payload.text))?.[1];
      expect(String(reply.payload.text)).toContain("https://t.me/birrcheck_test_bot?start=");
      const newcomer = newUser("Newcomer");
      await converse(
        harness,
        newcomer,
        textMessage(newcomer, `/start ${code}`),
        /joined <b>Main<\/b>.* as cashier/s,
      );
      await converse(
        harness,
        staff.manager,
        textMessage(staff.manager, "/invite admin"),
        /\/invite cashier or \/invite manager/,
      );
    });

    it("/history pages the branch's verifications with buttons and filters", async () => {
      const team = await joinedStaff(harness);
      const em = harness.db.orm.em.fork();
      for (let i = 0; i < 23; i += 1) {
        em.create(VerificationSchema, {
          branch: team.tenant.branchId,
          bank: "telebirr",
          transactionNumber: `REF${String(i).padStart(7, "0")}`,
          success: i % 2 === 0,
          exists: i % 2 === 0,
          amount: 100 + i,
          currency: "ETB",
          message: i % 2 === 0 ? null : "Transaction not found.",
          verificationMethod: "official",
          sourceType: "api",
          sourceLabel: "POS",
          sandbox: false,
          createdAt: new Date(Date.now() - (23 - i) * 60_000),
          deletedAt: null,
        });
      }
      await em.flush();
      const page1 = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/history 7d"),
        /Verifications/,
      );
      expect(String(page1.payload.text)).toContain("REF0000022");
      expect(String(page1.payload.text)).not.toContain("REF0000012");
      const page2 = await press(team.manager, page1, /Older/, /page 2/);
      expect(String(page2.payload.text)).toContain("REF0000012");
      expect(
        buttons(page2)
          .flat()
          .map(([text]) => text),
      ).toEqual(["‹ Newer", "Older ›"]);
      const failed = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/history 30d failed"),
        /Verifications/,
      );
      expect(String(failed.payload.text)).not.toContain("✅");
      expect(String(failed.payload.text)).toContain("Transaction not found.");
      await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/history 2y"),
        /optionally with a period/,
      );
    });

    it("/accounts adds an account in a conversation, sets the primary and deletes with confirmation", async () => {
      const team = await joinedStaff(harness);
      const list = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/accounts"),
        /no saved accounts/,
      );
      const bankQuestion = await press(
        team.manager,
        list,
        /Add an account/,
        /Which bank is the new account at/,
      );
      await press(
        team.manager,
        bankQuestion,
        /Commercial Bank/,
        /Type the Commercial Bank of Ethiopia account number/,
      );
      await converse(harness, team.manager, textMessage(team.manager, "1000 12x"), /digits only/);
      const labelQuestion = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "1000-1234-5678"),
        /label/,
      );
      const primaryQuestion = await press(team.manager, labelQuestion, /Skip/, /primary/);
      await press(
        team.manager,
        primaryQuestion,
        /Yes/,
        /Saved Commercial Bank of Ethiopia · 100012345678 · Commercial Bank of Ethiopia/,
      );

      await createAccount(harness.db.orm.em.fork(), team.tenant.branchId, {
        bank: "cbe",
        accountNumber: "1000555555555",
        label: "Second",
        isPrimary: false,
      });
      const shown = await converse(
        harness,
        team.manager,
        textMessage(team.manager, "/accounts"),
        /Receiving accounts/,
      );
      expect(String(shown.payload.text)).toMatch(/1\. .*100012345678.* ★ primary\n2\. .*Second$/s);
      const made = await press(team.manager, shown, /Primary #2/, /is now the primary/);
      expect(String(made.payload.text)).toMatch(/Second ★ primary/);
      const confirm = await press(team.manager, made, /Delete #1/, /^Delete /);
      await press(team.manager, confirm, /Yes, delete/, /^Deleted /);
      const accounts = await harness.db.orm.em.fork().find("SavedAccount", { branch: team.tenant.branchId });
      expect(accounts).toHaveLength(1);
    });
  });

  /** Presses the button labelled `label` on the message of `call`, and waits for the reply matching `pattern`. */
  async function press(
    user: FakeUser,
    call: BotApiCall,
    label: RegExp,
    pattern: RegExp,
  ): Promise<BotApiCall> {
    const message = { message_id: await sentMessageId(call), chat_id: user.id };
    return converse(harness, user, callbackQuery(user, button(call, label), message), pattern);
  }

  /** The id the fake Bot API gave a message the bot sent (or the edited message's id). */
  async function sentMessageId(call: BotApiCall): Promise<number> {
    if (call.method === "editMessageText") return Number(call.payload.message_id);
    await waitUntil(() => call.result !== undefined, "the fake Bot API's answer");
    return (call.result as { message_id: number }).message_id;
  }
});

async function nextAfter(
  harness: BotHarness,
  user: ReturnType<typeof newUser>,
  update: Parameters<BotHarness["send"]>[0],
  pattern: RegExp,
  timeoutMs: number,
) {
  const after = harness.telegram.calls.length;
  await harness.send(update);
  return nextReply(harness, user, pattern, after, timeoutMs);
}

/** The receipt PDF M-Pesa's lookup returns (base64 inside its JSON), as a customer would share it. */
async function mpesaPdf(trxNo: string): Promise<Uint8Array> {
  const answer = await simulatedBank("mpesa").handle({
    origin: "m-pesabusiness.safaricom.et:443",
    method: "GET",
    path: "/api/receipt/getReceipt",
    query: new URLSearchParams({ trxNo }),
    headers: {},
  });
  const { base64Data } = JSON.parse(String(answer.body)) as { base64Data: string };
  return new Uint8Array(Buffer.from(base64Data, "base64"));
}

/** The M-Pesa app's receipt screen for the simulator's first M-Pesa example. */
function mpesaScreen(): string[] {
  const { reference, receipt } = firstExample("mpesa");
  return [
    "# M-PESA",
    `Transaction ID\t${reference}`,
    `Amount\tETB ${receipt.amount.toFixed(2)}`,
    `Sender\t${receipt.payerName}`,
    `Receiver\t${receipt.receiverName}`,
    "Status\tCompleted",
  ];
}
