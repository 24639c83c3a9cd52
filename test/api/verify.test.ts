import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bankName } from "../../src/banks/catalogue.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import type { Receipt } from "../../src/banks/types.js";
import { QuotaUsageSchema, VerificationSchema } from "../../src/db/entities/index.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import {
  firstExample,
  referenceBody,
  type Simulator,
  simulatedBank,
  startBanks,
} from "../support/simulator.js";

let api: TestApi;
let sim: Simulator;
beforeAll(async () => {
  // Short timeouts keep the outage cases fast; retry behaviour is covered by the bank contract suite.
  const started = await startBanks({
    timeoutsMs: Object.fromEntries(BANK_CODES.map((code) => [code, 1_000])),
    // One retry: the CBE simulator imitates the real API's sporadic 400s on one seeded token.
    retries: Object.fromEntries(BANK_CODES.map((code) => [code, 1])),
  });
  sim = started.sim;
  api = await startTestApi({ banks: started.banks });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});
afterEach(() => {
  for (const code of BANK_CODES) sim.setMode(code, { kind: "normal" });
});

const verify = (tenant: Tenant, json: unknown) => api.request("POST", "/verify", { key: tenant.key, json });

/** The receipt as docs/api.md §2.3 presents it. */
function presented(receipt: Receipt) {
  return {
    status: receipt.status,
    ...(receipt.transactionType ? { transaction_type: receipt.transactionType } : {}),
    amount: receipt.amount,
    currency: receipt.currency,
    transaction_date: receipt.transactionDate,
    payer_name: receipt.payerName,
    payer_account: receipt.payerAccount,
    receiver_name: receipt.receiverName,
    receiver_account: receipt.receiverAccount,
    description: receipt.description,
  };
}

async function usage(tenant: Tenant): Promise<number> {
  const row = await api.db.orm.em
    .fork()
    .findOne(QuotaUsageSchema, { business: tenant.businessId, month: quotaMonth(new Date()) });
  return row?.count ?? 0;
}

describe("POST /verify by bank and transaction number", () => {
  it.each(BANK_CODES)("confirms every seeded %s receipt with the bank's details", async (code) => {
    for (const example of simulatedBank(code).examples) {
      const tenant = await createTenant(api.db);
      const response = await verify(tenant, referenceBody(code, example));
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const completed = example.receipt.status === "completed";
      expect(response.body).toEqual({
        success: completed,
        exists: true,
        duplicate: false,
        message: completed ? null : `The transaction is not completed (status: ${example.receipt.status}).`,
        data: {
          bank: code,
          bank_name: bankName(code),
          verification_id: expect.stringMatching(/^\d+$/),
          transaction_number: example.reference,
          source_url: null,
          verification_method: "official",
          receipt: presented(example.receipt),
        },
      });
      expect(await usage(tenant)).toBe(1);
      const { verifications } = (await api.request("GET", "/verifications", { key: tenant.key })).body;
      expect(verifications).toHaveLength(1);
      expect(verifications[0]).toMatchObject({
        id: Number(response.body.data.verification_id),
        bank: code,
        transaction_number: example.reference,
        success: completed,
        exists: true,
        status: example.receipt.status,
        amount: example.receipt.amount,
        source: { type: "api", label: "test key" },
      });
    }
  });

  it.each(BANK_CODES)(
    "answers 404 with the contract's body when %s does not know the reference",
    async (code) => {
      const tenant = await createTenant(api.db);
      const { notFound } = simulatedBank(code);
      const response = await verify(tenant, {
        bank: code,
        transaction_number: notFound.token ?? notFound.transactionNumber,
        ...(notFound.account ? { account_number: notFound.account } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        exists: false,
        duplicate: false,
        message: "Transaction not found.",
        data: {
          bank: code,
          bank_name: bankName(code),
          verification_id: null,
          transaction_number: expect.any(String),
          source_url: null,
          verification_method: "official",
          receipt: {},
        },
      });
      const records = await api.db.orm.em.fork().find(VerificationSchema, { branch: tenant.branchId });
      expect(records.map((r) => [r.success, r.exists, r.message])).toEqual([
        [false, false, "Transaction not found."],
      ]);
    },
  );
});

describe("duplicates", () => {
  it("reports an already confirmed receipt without asking the bank again", async () => {
    const tenant = await createTenant(api.db);
    const body = referenceBody("telebirr", firstExample("telebirr"));
    const first = await verify(tenant, body);
    sim.resetCounts();
    const second = await verify(tenant, body);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      success: false,
      exists: true,
      duplicate: true,
      message: "This transaction was already verified.",
      existing_verification_id: Number(first.body.data.verification_id),
      verified_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { receipt: first.body.data.receipt },
    });
    expect(sim.requestCount("telebirr")).toBe(0);
    expect(await usage(tenant)).toBe(1);
  });

  it("is per branch: another branch may confirm the same receipt", async () => {
    const body = referenceBody("dashen", firstExample("dashen"));
    const a = await verify(await createTenant(api.db), body);
    const b = await verify(await createTenant(api.db), body);
    expect([a.body.success, b.body.success]).toEqual([true, true]);
  });

  it("catches the same receipt reached through its share link", async () => {
    const tenant = await createTenant(api.db);
    const example = firstExample("mpesa");
    await verify(tenant, referenceBody("mpesa", example));
    const again = await verify(tenant, { receipt_url: example.shareUrl });
    expect(again.body).toMatchObject({ duplicate: true, data: { transaction_number: example.reference } });
  });

  it("catches a CBE receipt confirmed by token when it comes back as FT reference and account", async () => {
    const tenant = await createTenant(api.db);
    const { examples } = simulatedBank("cbe");
    const token = examples.find((e) => e.target.token !== null);
    const legacy = examples.find((e) => e.target.token === null && e.reference === token?.reference);
    if (!token || !legacy) throw new Error("the CBE simulator seeds one transfer in both systems");
    const first = await verify(tenant, { receipt_url: token.shareUrl });
    expect(first.body.success).toBe(true);
    const second = await verify(tenant, referenceBody("cbe", legacy));
    expect(second.body).toMatchObject({
      duplicate: true,
      existing_verification_id: Number(first.body.data.verification_id),
    });
  });

  it("keeps deleted confirmations used", async () => {
    const tenant = await createTenant(api.db);
    const body = referenceBody("amhara", firstExample("amhara"));
    const first = await verify(tenant, body);
    await api.request("DELETE", `/verifications/${first.body.data.verification_id}`, { key: tenant.key });
    expect((await verify(tenant, body)).body.duplicate).toBe(true);
  });

  it("gives exactly one confirmation for 50 concurrent identical requests, with one bank request", async () => {
    const tenant = await createTenant(api.db, { quota: 100 });
    sim.resetCounts();
    const body = referenceBody("boa", firstExample("boa"));
    const responses = await Promise.all(Array.from({ length: 50 }, () => verify(tenant, body)));
    const confirmed = responses.filter((r) => r.body.success === true);
    const duplicates = responses.filter((r) => r.body.duplicate === true);
    expect(confirmed).toHaveLength(1);
    expect(duplicates).toHaveLength(49);
    const existingIds = new Set(duplicates.map((r) => r.body.existing_verification_id));
    expect([...existingIds]).toEqual([Number(confirmed[0]?.body.data.verification_id)]);
    expect(await usage(tenant)).toBe(1);
    expect(sim.requestCount("boa")).toBe(1);
    const stored = await api.db.orm.em
      .fork()
      .count(VerificationSchema, { branch: tenant.branchId, success: true });
    expect(stored).toBe(1);
  });
});

describe("quota", () => {
  it("answers 402 when the month's quota is used, and consumes nothing more", async () => {
    const tenant = await createTenant(api.db, { quota: 1 });
    const [first, second] = simulatedBank("telebirr").examples;
    if (!first || !second) throw new Error("two telebirr examples are seeded");
    expect((await verify(tenant, referenceBody("telebirr", first))).status).toBe(200);
    sim.resetCounts();
    const response = await verify(tenant, referenceBody("telebirr", second));
    expect(response.status).toBe(402);
    expect(response.body).toEqual({
      message: "Monthly verification limit reached. Please upgrade your plan.",
    });
    expect(sim.requestCount("telebirr")).toBe(0);
    expect(await usage(tenant)).toBe(1);
  });

  it("is exact under 50 concurrent distinct verifications", async () => {
    // One business with a quota of 10 and 50 branches: the same receipt is a distinct verification per branch.
    const owner = await createTenant(api.db, { quota: 10 });
    const { createBranch } = await import("../../src/admin/businesses.js");
    const { createKey } = await import("../support/api.js");
    const keys: Tenant[] = [];
    for (let i = 0; i < 50; i++) {
      const branch = await createBranch(api.db.orm.em.fork(), owner.businessId, `Branch ${i}`);
      keys.push({ ...owner, branchId: branch.id, key: await createKey(api.db, branch.id, "cashier") });
    }
    const body = referenceBody("zemen", firstExample("zemen"));
    const responses = await Promise.all(keys.map((tenant) => verify(tenant, body)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(await usage(owner)).toBe(10);
  });

  it("counts a not-found lookup and never a duplicate", async () => {
    const tenant = await createTenant(api.db);
    const { notFound } = simulatedBank("dashen");
    await verify(tenant, { bank: "dashen", transaction_number: notFound.transactionNumber });
    expect(await usage(tenant)).toBe(1);
  });
});

describe("bank failures", () => {
  it.each([
    [
      "down (5xx)",
      { kind: "error", status: 503 } as const,
      503,
      "Telebirr is not responding. Please try again later.",
    ],
    [
      "slow past its timeout",
      { kind: "slow", delayMs: 3_000 } as const,
      503,
      "Telebirr is not responding. Please try again later.",
    ],
    [
      "resetting connections",
      { kind: "reset" } as const,
      503,
      "Telebirr is not responding. Please try again later.",
    ],
    [
      "redirecting",
      { kind: "redirect", location: "https://example.org/" } as const,
      503,
      "Telebirr is not responding. Please try again later.",
    ],
    [
      "answering garbage",
      { kind: "garbage" } as const,
      502,
      "Telebirr sent an answer that could not be read. Please try again later.",
    ],
  ])("when the bank is %s: %s, nothing consumed or recorded", async (_name, mode, status, message) => {
    const tenant = await createTenant(api.db);
    sim.setMode("telebirr", mode);
    const response = await verify(tenant, referenceBody("telebirr", firstExample("telebirr")));
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ message });
    expect(await usage(tenant)).toBe(0);
    expect(await api.db.orm.em.fork().count(VerificationSchema, { branch: tenant.branchId })).toBe(0);
  });

  it("logs the bank and the reference of a failed lookup", async () => {
    const tenant = await createTenant(api.db);
    sim.setMode("mpesa", { kind: "error", status: 500 });
    const example = firstExample("mpesa");
    await verify(tenant, referenceBody("mpesa", example));
    const line = api.logs
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === "bank lookup failed" && l.bank === "mpesa");
    expect(line).toMatchObject({ reference: example.target.transactionNumber, error: "bank_unavailable" });
  });
});

describe("receiving account", () => {
  it("refuses a receipt paid to another account than the one given", async () => {
    const tenant = await createTenant(api.db);
    const example = firstExample("telebirr");
    const response = await verify(tenant, {
      ...referenceBody("telebirr", example),
      account_number: "251900000001",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: false,
      exists: true,
      duplicate: false,
      message: "The transaction was paid to a different account.",
      data: { receipt: presented(example.receipt) },
    });
  });

  it("accepts the right account, masked digits compared", async () => {
    const tenant = await createTenant(api.db);
    const example = firstExample("telebirr");
    const digits = example.receipt.receiverAccount.replace(/\D/g, "");
    const full = `${digits.slice(0, 4)}1234${digits.slice(-4)}`;
    const response = await verify(tenant, { ...referenceBody("telebirr", example), account_number: full });
    expect(response.body.success).toBe(true);
  });

  it("uses a saved account of the branch as bank_account_id", async () => {
    const tenant = await createTenant(api.db);
    const example = firstExample("telebirr");
    const saved = await api.request("POST", "/accounts", {
      key: tenant.key,
      json: { bank: "telebirr", account_number: "251900000001", label: "Shop wallet" },
    });
    const response = await verify(tenant, {
      bank: "telebirr",
      transaction_number: example.target.transactionNumber,
      bank_account_id: saved.body.account.id,
    });
    expect(response.body.message).toBe("The transaction was paid to a different account.");
  });

  it("rejects a saved account of another bank or another branch", async () => {
    const tenant = await createTenant(api.db);
    const other = await createTenant(api.db);
    const cbe = await api.request("POST", "/accounts", {
      key: tenant.key,
      json: { bank: "cbe", account_number: "1000123456789", label: "CBE" },
    });
    const theirs = await api.request("POST", "/accounts", {
      key: other.key,
      json: { bank: "telebirr", account_number: "251911112222", label: "Theirs" },
    });
    const body = { bank: "telebirr", transaction_number: firstExample("telebirr").target.transactionNumber };
    const wrongBank = await verify(tenant, { ...body, bank_account_id: cbe.body.account.id });
    expect(wrongBank.status).toBe(422);
    expect(wrongBank.body.errors).toEqual({
      bank_account_id: ["The selected bank account is not a Telebirr account."],
    });
    const foreign = await verify(tenant, { ...body, bank_account_id: theirs.body.account.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ bank_account_id: ["The selected bank account id is invalid."] });
  });
});

describe("input", () => {
  const invalid = (errors: Record<string, string[]>) => ({ message: "The given data was invalid.", errors });

  it("answers 400 for an unsupported bank", async () => {
    const tenant = await createTenant(api.db);
    const response = await verify(tenant, { bank: "nib", transaction_number: "FT26140P01YB" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "The selected bank is invalid." });
  });

  it.each([
    [
      {},
      {
        bank: [
          "The bank field is required when none of receipt url / receipt file / receipt text are present.",
        ],
        transaction_number: [
          "The transaction number field is required when none of receipt url / receipt file / receipt text are present.",
        ],
      },
    ],
    [
      { bank: "telebirr" },
      {
        transaction_number: [
          "The transaction number field is required when none of receipt url / receipt file / receipt text are present.",
        ],
      },
    ],
    [
      { transaction_number: "DFH51OFIED" },
      { bank: ["The bank field is required when transaction number is present."] },
    ],
    [
      {
        bank: "telebirr",
        transaction_number: "DFH51OFIED",
        receipt_url: "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
      },
      { receipt_url: ["The receipt url field prohibits transaction number from being present."] },
    ],
    [
      { bank: "telebirr", transaction_number: 12 },
      { transaction_number: ["The transaction number must be a string."] },
    ],
    [
      { bank: "telebirr", transaction_number: "DFH51OFIED", bank_account_id: "x" },
      { bank_account_id: ["The bank account id must be an integer."] },
    ],
    [
      { bank: "telebirr", transaction_number: "DFH51OFIED", account_number: "1", bank_account_id: 1 },
      { bank_account_id: ["The bank account id field prohibits account number from being present."] },
    ],
    [
      { receipt_text: "x".repeat(50_001) },
      { receipt_text: ["The receipt text may not be greater than 50000 characters."] },
    ],
  ])("rejects invalid body %#", async (json, errors) => {
    const tenant = await createTenant(api.db);
    const response = await verify(tenant, json);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid(errors));
    expect(await usage(tenant)).toBe(0);
  });

  it.each([
    ["cbe", { transaction_number: "FT26140P01YB" }, "account_number"],
    ["boa", { transaction_number: "FT26083XJRMH" }, "account_number"],
    ["cbebirr", { transaction_number: "DIP41PM7JL" }, "account_number"],
    ["telebirr", { transaction_number: "abc" }, "transaction_number"],
    ["dashen", { transaction_number: "OBTI28455679126320660525" }, "transaction_number"],
    ["awash", { transaction_number: "260607112275735" }, "transaction_number"],
  ])("validates %s references and accounts before anything is consumed", async (bank, fields, field) => {
    const tenant = await createTenant(api.db);
    sim.resetCounts();
    const response = await verify(tenant, { bank, ...fields });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect(response.body.errors[field][0]).toMatch(/\.$/);
    expect(sim.requestCount(bank as (typeof BANK_CODES)[number])).toBe(0);
    expect(await usage(tenant)).toBe(0);
  });

  it("normalises the CBE Birr payer phone", async () => {
    const tenant = await createTenant(api.db);
    const example = firstExample("cbebirr");
    const phone = `0${example.target.account?.slice(3)}`;
    const response = await verify(tenant, {
      bank: "cbebirr",
      transaction_number: example.target.transactionNumber,
      account_number: phone,
    });
    expect(response.body.success).toBe(true);
  });

  it("uppercases case-insensitive references but keeps CBE tokens as given", async () => {
    const tenant = await createTenant(api.db);
    const example = firstExample("telebirr");
    const lower = await verify(tenant, {
      bank: "telebirr",
      transaction_number: ` ${example.target.transactionNumber.toLowerCase()} `,
    });
    expect(lower.body.success).toBe(true);
    // A mixed-case CBE token only works exactly as given: uppercasing it would make the lookup fail.
    const cbeToken = firstExample("cbe").target.token ?? "";
    expect(cbeToken).toMatch(/[a-z]/);
    const token = await verify(await createTenant(api.db), {
      bank: "cbe",
      transaction_number: ` ${cbeToken} `,
    });
    expect(token.body.success).toBe(true);
  });
});
