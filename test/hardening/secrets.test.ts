import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackQuery, textMessage } from "../../fakes/telegram.js";
import { LEGACY_RECEIPTS } from "../../src/banks/cbe/imitation.js";
import { ApiKeySchema } from "../../src/db/entities/index.js";
import { createTenant, type Tenant } from "../support/api.js";
import {
  type BotHarness,
  converse,
  joinedStaff,
  type Staff,
  startBotHarness,
  WEBHOOK_SECRET,
  waitUntil,
} from "../support/bot.js";

const cbe = LEGACY_RECEIPTS.find((receipt) => receipt.reference === "FT26140P01YB");
if (!cbe) throw new Error("the CBE simulator seeds FT26140P01YB");

/**
 * A run through the API and the bot, with failures on both sides, must leave no secret in the logs: no API
 * key, no bot token, no webhook secret, no full account number.
 */
describe("secrets in logs", () => {
  let harness: BotHarness;
  let tenant: Tenant;
  let staff: Staff;
  beforeAll(async () => {
    harness = await startBotHarness("webhook");
    tenant = await createTenant(harness.db);
    staff = await joinedStaff(harness);
  });
  afterAll(() => harness.close());

  const api = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${harness.service.url}/api/v1${path}`, {
      ...init,
      headers: {
        "content-type": "application/json",
        ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      },
    });

  it("logs none of them over API calls, bot flows and outages", async () => {
    const verify = { bank: "cbe", transaction_number: "FT26140P01YB", account_number: cbe.fullAccount };
    expect(
      (await api("/verify", { method: "POST", key: tenant.key, body: JSON.stringify(verify) })).status,
    ).toBe(200);
    expect((await api("/accounts", { key: `${tenant.key}x` })).status).toBe(401);
    const account = { bank: "boa", account_number: "1234567890123", label: "Till", is_primary: true };
    expect(
      (await api("/accounts", { method: "POST", key: tenant.key, body: JSON.stringify(account) })).status,
    ).toBe(201);
    harness.sim.setMode("boa", { kind: "error", status: 500 });
    await api("/verify", {
      method: "POST",
      key: tenant.key,
      body: JSON.stringify({
        bank: "boa",
        transaction_number: "FT26083XJRMH",
        account_number: "1234567890123",
      }),
    });
    harness.sim.setMode("boa", { kind: "normal" });

    const question = await converse(
      harness,
      staff.cashier,
      textMessage(staff.cashier, "FT26140P01YB"),
      /Which bank/,
    );
    await waitUntil(() => question.result !== undefined, "the question's id");
    const messageId = (question.result as { message_id: number }).message_id;
    await converse(
      harness,
      staff.cashier,
      callbackQuery(staff.cashier, "pick:cbe", { message_id: messageId, chat_id: staff.cashier.id }),
      /account number/,
    );
    await converse(
      harness,
      staff.cashier,
      textMessage(staff.cashier, cbe.fullAccount),
      /Already verified|confirmed/,
    );

    // The Bot API fails, then goes away and comes back: errors are logged.
    harness.telegram.failNext("sendMessage", { error_code: 500, description: "Internal Server Error" }, 5);
    await harness.send(textMessage(staff.cashier, "/help")).catch(() => undefined);
    await harness.telegram.close();
    const failedBefore = harness.logs.filter((line) => line.includes("telegram getMe failed")).length;
    await harness.restart();
    // The restarted service has tried the unreachable Bot API and logged its error.
    await waitUntil(
      () => harness.logs.filter((line) => line.includes("telegram getMe failed")).length > failedBefore,
      "a logged getMe failure while the Bot API is away",
    );
    await harness.telegram.reopen();
    await waitUntil(
      () => harness.logs.some((line) => line.includes("telegram bot connected")),
      "reconnection",
      30_000,
    );

    const logs = harness.logs.join("");
    expect(logs.length).toBeGreaterThan(1000);
    expect(harness.logs.some((line) => line.includes('"level":40') || line.includes('"level":50'))).toBe(
      true,
    );
    for (const secret of [
      tenant.key,
      tenant.key.slice(12),
      harness.telegram.token,
      harness.telegram.token.split(":")[1] ?? "",
      WEBHOOK_SECRET,
      cbe.fullAccount,
      "1234567890123",
    ]) {
      const leaked = harness.logs.find((line) => line.includes(secret));
      expect(leaked, `a log line contains ${secret.slice(0, 6)}…`).toBeUndefined();
    }
  });

  it("never echoes a request body in an error", async () => {
    const marker = "Zq9MARKERq9Z";
    const bodies: Array<[string, string]> = [
      ["/verify", JSON.stringify({ bank: marker, transaction_number: marker, account_number: marker })],
      ["/verify", JSON.stringify({ bank: "telebirr", transaction_number: `${marker}-${marker}` })],
      ["/verify", JSON.stringify({ receipt_url: `https://${marker}.example.com/receipt/${marker}` })],
      ["/verify/parse-url", JSON.stringify({ receipt_url: `javascript:${marker}` })],
      ["/accounts", JSON.stringify({ bank: "cbe", account_number: marker, label: marker.repeat(20) })],
      ["/verify", `{"bank": "${marker}", `],
    ];
    for (const [path, body] of bodies) {
      const response = await api(path, { method: "POST", key: tenant.key, body });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await response.text()).not.toContain(marker);
    }
  });

  it("keeps API keys only as hashes", async () => {
    const rows = await harness.db.orm.em.fork().find(ApiKeySchema, {});
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(tenant.key);
    expect(JSON.stringify(rows)).not.toContain(tenant.key.slice(12));
  });
});
