import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { keepLeases } from "../../api/middleware/claim-leases.js";
import { KEY_REUSED } from "../../api/middleware/idempotency.js";
import { acquireKey, type KeyTimes, storeAnswer } from "../../api/middleware/idempotency-keys.js";
import { requestFingerprint } from "../../api/middleware/request-fingerprint.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { QuotaUsageSchema } from "../../src/db/entities/index.js";
import { openOrm } from "../../src/db/orm.js";
import { quotaMonth } from "../../src/engine/quota.js";
import { createKey, createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import {
  type Banks,
  firstExample,
  referenceBody,
  type Simulator,
  simulatedBank,
  startBanks,
} from "../support/simulator.js";
import { waitFor } from "../support/wait.js";

// POST /verify with an Idempotency-Key (docs/api.md §6), over real HTTP on a real database.

let api: TestApi;
/** A second instance on the same database, as behind a load balancer or after a restart. */
let other: TestApi;
let sim: Simulator;
let banks: Banks;
beforeAll(async () => {
  const started = await startBanks({
    timeoutsMs: Object.fromEntries(BANK_CODES.map((code) => [code, 2_000])),
    // No retries: a bank outage answers its 503 at once.
    retries: Object.fromEntries(BANK_CODES.map((code) => [code, 0])),
  });
  sim = started.sim;
  banks = started;
  api = await startTestApi({ banks: started.banks });
  const orm = await openOrm({ clientUrl: api.db.url });
  other = await startTestApi({
    banks: started.banks,
    database: { url: api.db.url, orm, drop: () => orm.close(true) },
  });
});
afterAll(async () => {
  await other?.close();
  await api?.close();
  await sim?.close();
});
afterEach(() => {
  for (const code of BANK_CODES) sim.setMode(code, { kind: "normal" });
});

const TELEBIRR = referenceBody("telebirr", firstExample("telebirr"));

interface Answer {
  status: number;
  replayed: string | null;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  body: any;
}

/** POST /verify with the tenant's API key and, when given, an Idempotency-Key. */
async function verify(
  tenant: Tenant | string,
  json: unknown,
  idempotencyKey?: string,
  signal?: AbortSignal,
  instance: TestApi = api,
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${typeof tenant === "string" ? tenant : tenant.key}`,
    "content-type": "application/json",
  };
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  const response = await fetch(`${instance.url}/api/v1/verify`, {
    method: "POST",
    headers,
    body: JSON.stringify(json),
    ...(signal ? { signal } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    text,
    body: JSON.parse(text),
  };
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return api.db.orm.em.fork().execute(sql, params);
}

async function verificationRows(tenant: Tenant): Promise<number> {
  const [row] = await query<{ n: number }>(
    "select count(*)::int as n from verifications where branch_id = ?",
    [tenant.branchId],
  );
  return row?.n ?? 0;
}

async function usage(tenant: Tenant): Promise<number> {
  const row = await api.db.orm.em
    .fork()
    .findOne(QuotaUsageSchema, { business: tenant.businessId, month: quotaMonth(new Date()) });
  return row?.count ?? 0;
}

async function storedKeys(key: string) {
  return query<{ status: number | null; created_at: string }>(
    `select status, created_at from idempotency_keys where "key" = ?`,
    [key],
  );
}

const until = waitFor;

/** Connections of this database waiting for a lock (on statements matching `like`, when given). */
async function lockWaiters(like = "%"): Promise<number> {
  const [waiting] = await query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ?`,
    [like],
  );
  return waiting?.n ?? 0;
}

describe("a retry with the same Idempotency-Key", () => {
  it("gets the first answer again: same status and bytes, marked as a replay, nothing done twice", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const first = await verify(tenant, TELEBIRR, key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, duplicate: false });
    expect(first.replayed).toBe("false");
    sim.resetCounts();

    const again = await verify(tenant, TELEBIRR, key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.replayed).toBe("true");
    expect(sim.requestCount("telebirr")).toBe(0);
    expect(await verificationRows(tenant)).toBe(1);
    expect(await usage(tenant)).toBe(1);
  });

  it("with the same fields in another order and spacing is the same request", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const first = await verify(tenant, TELEBIRR, key);
    const reordered = Object.fromEntries(Object.entries(TELEBIRR).reverse());
    const again = await verify(tenant, reordered, key);
    expect(again.replayed).toBe("true");
    expect(again.text).toBe(first.text);
  });

  it("replays a not-found 404 without asking the bank or spending quota again", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const body = {
      bank: "telebirr",
      transaction_number: simulatedBank("telebirr").notFound.transactionNumber,
    };
    const first = await verify(tenant, body, key);
    expect(first.status).toBe(404);
    const again = await verify(tenant, body, key);
    expect(again.status).toBe(404);
    expect(again.replayed).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await verificationRows(tenant)).toBe(1);
    expect(await usage(tenant)).toBe(1);
  });

  it("replays a validation failure of the body (a final answer)", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const first = await verify(tenant, {}, key);
    expect(first.status).toBe(422);
    const again = await verify(tenant, {}, key);
    expect(again.status).toBe(422);
    expect(again.replayed).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("with another body is a 422 and runs nothing", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    await verify(tenant, TELEBIRR, key);
    sim.resetCounts();
    const other = await verify(tenant, referenceBody("mpesa", firstExample("mpesa")), key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      message: "The given data was invalid.",
      errors: { idempotency_key: [KEY_REUSED] },
    });
    expect(other.replayed).toBeNull();
    expect(sim.requestCount("mpesa")).toBe(0);
    expect(await verificationRows(tenant)).toBe(1);
  });

  it("binds the key to the uploaded file's bytes too", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const png = (tail: string) => Buffer.from(`89504e470d0a1a0a0000000d49484452${tail}`, "hex");
    const upload = async (bytes: Buffer): Promise<Omit<Answer, "text">> => {
      const form = new FormData();
      form.append("bank", "telebirr");
      form.append("receipt_file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "photo.png");
      const response = await fetch(`${api.url}/api/v1/verify`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.key}`, "idempotency-key": key },
        body: form,
      });
      return {
        status: response.status,
        replayed: response.headers.get("idempotent-replayed"),
        body: await response.json(),
      };
    };
    // An image without its text: a 422 that is kept for the key.
    const first = await upload(png("00"));
    expect(first.status).toBe(422);
    expect(first.body.errors.receipt_text).toBeDefined();
    const otherFile = await upload(png("01"));
    expect(otherFile.body.errors).toEqual({ idempotency_key: [KEY_REUSED] });
    const sameFile = await upload(png("00"));
    expect(sameFile.replayed).toBe("true");
    expect(sameFile.body).toEqual(first.body);
  });
});

describe("without an Idempotency-Key", () => {
  it("the contract's duplicate rule stands", async () => {
    const tenant = await createTenant(api.db);
    const first = await verify(tenant, TELEBIRR);
    const second = await verify(tenant, TELEBIRR);
    expect(first.body).toMatchObject({ success: true, duplicate: false });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ success: false, duplicate: true });
    expect([first.replayed, second.replayed]).toEqual(["false", "false"]);
    expect(await verificationRows(tenant)).toBe(2);
  });
});

describe("keys are scoped to the API key", () => {
  it("another API key with the same Idempotency-Key runs its own request", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    await verify(tenant, TELEBIRR, key);

    // A second key of the same branch: runs, and is told the receipt is already used.
    const colleague = await createKey(api.db, tenant.branchId, "cashier");
    const theirs = await verify(colleague, TELEBIRR, key);
    expect(theirs.replayed).toBe("false");
    expect(theirs.body).toMatchObject({ success: false, duplicate: true });

    // Another business entirely: its own confirmation.
    const stranger = await createTenant(api.db, { name: "Another business" });
    const own = await verify(stranger, TELEBIRR, key);
    expect(own.replayed).toBe("false");
    expect(own.body).toMatchObject({ success: true, duplicate: false });
    expect(await verificationRows(stranger)).toBe(1);
  });
});

describe("concurrent requests with one key", () => {
  it("make one verification; every caller gets its answer", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    sim.setMode("telebirr", { kind: "slow", delayMs: 400 });
    sim.resetCounts();
    const answers = await Promise.all(Array.from({ length: 4 }, () => verify(tenant, TELEBIRR, key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]?.body).toMatchObject({ success: true, duplicate: false });
    expect(answers.map((a) => a.replayed).sort()).toEqual(["false", "true", "true", "true"]);
    expect(sim.requestCount("telebirr")).toBe(1);
    expect(await verificationRows(tenant)).toBe(1);
    expect(await usage(tenant)).toBe(1);
  });
});

describe("across instances", () => {
  it("one instance replays what another answered, and concurrent requests make one verification", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const first = await verify(tenant, TELEBIRR, key);
    const elsewhere = await verify(tenant, TELEBIRR, key, undefined, other);
    expect(elsewhere.replayed).toBe("true");
    expect(elsewhere.text).toBe(first.text);

    const racing = randomUUID();
    const body = referenceBody("mpesa", firstExample("mpesa"));
    sim.setMode("mpesa", { kind: "slow", delayMs: 300 });
    const answers = await Promise.all([
      verify(tenant, body, racing),
      verify(tenant, body, racing, undefined, other),
    ]);
    expect(answers[0]?.text).toBe(answers[1]?.text);
    expect(answers.map((a) => a.replayed).sort()).toEqual(["false", "true"]);
    expect(await verificationRows(tenant)).toBe(2);
  });
});

describe("a lost answer", () => {
  it("is kept although the client left after the row was committed: its retry gets the original 200", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    // The bank holds its answer until the pending key is locked. The answer is stored in the transaction
    // that writes the verification: that transaction waits on this lock (the bank has answered, nothing is
    // committed yet) until the client has gone.
    const held = banks.hold("telebirr");
    const blocker = new pg.Client({ connectionString: api.db.url });
    await blocker.connect();
    try {
      const client = new AbortController();
      const lost = verify(tenant, TELEBIRR, key, client.signal).then(
        () => "answered",
        (error: Error) => error.name,
      );
      await until(async () => (await storedKeys(key)).length === 1, "the claimed key");
      await blocker.query("begin");
      await blocker.query(`select 1 from idempotency_keys where "key" = $1 for update`, [key]);
      held.release();
      await until(
        async () => (await lockWaiters()) > 0,
        "the verification's transaction waiting to store the answer",
      );
      const gone = api.clientsGone();
      client.abort();
      expect(await lost).toBe("AbortError");
      await until(() => api.clientsGone() > gone, "the server to see the client leave");
      await blocker.query("commit");
    } finally {
      await blocker.end();
    }
    const [row] = await until(async () => {
      const rows = await storedKeys(key);
      return rows[0]?.status ? rows : undefined;
    }, "the stored answer");
    expect(row?.status).toBe(200);

    const retry = await verify(tenant, TELEBIRR, key);
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe("true");
    expect(retry.body).toMatchObject({ success: true, exists: true, duplicate: false, message: null });
    const [record] = await query<{ id: number }>("select id from verifications where branch_id = ?", [
      tenant.branchId,
    ]);
    expect(retry.body.data.verification_id).toBe(String(record?.id));
    expect(await verificationRows(tenant)).toBe(1);
    expect(await usage(tenant)).toBe(1);
  });
});

describe("a client gone before its verification was written", () => {
  it("still gets it on retry: the answer is kept although nobody could be sent it", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    // The business's quota row is locked, so the verification's write (which takes a unit of quota) waits
    // after the bank has answered; the client leaves meanwhile, then the write goes through.
    await query("insert into quota_usage (business_id, month, count) values (?, ?, 0)", [
      tenant.businessId,
      quotaMonth(new Date()),
    ]);
    const blocker = new pg.Client({ connectionString: api.db.url });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await blocker.query("select 1 from quota_usage where business_id = $1 for update", [tenant.businessId]);
      const client = new AbortController();
      const lost = verify(tenant, TELEBIRR, key, client.signal).then(
        () => "answered",
        (error: Error) => error.name,
      );
      await until(async () => (await lockWaiters("%quota_usage%")) > 0, "the verification's write to wait");
      const gone = api.clientsGone();
      client.abort();
      expect(await lost).toBe("AbortError");
      // The server sees the connection close before the write completes.
      await until(() => api.clientsGone() > gone, "the server to see the client leave");
      await blocker.query("commit");
    } finally {
      await blocker.end();
    }
    await until(async () => (await storedKeys(key))[0]?.status, "the stored answer");
    expect(await verificationRows(tenant)).toBe(1);

    const retry = await verify(tenant, TELEBIRR, key);
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe("true");
    expect(retry.body).toMatchObject({ success: true, duplicate: false });
    expect(await verificationRows(tenant)).toBe(1);
    expect(await usage(tenant)).toBe(1);
  });
});

describe("answers that are not kept", () => {
  it("a bank outage (503) releases the key: the retry asks the bank again", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    sim.setMode("telebirr", { kind: "error", status: 500 });
    const down = await verify(tenant, TELEBIRR, key);
    expect(down.status).toBe(503);
    expect(await storedKeys(key)).toEqual([]);

    sim.setMode("telebirr", { kind: "normal" });
    sim.resetCounts();
    const retry = await verify(tenant, TELEBIRR, key);
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe("false");
    expect(retry.body).toMatchObject({ success: true, duplicate: false });
    expect(sim.requestCount("telebirr")).toBe(1);
    expect(await usage(tenant)).toBe(1);
  });

  it("a used-up quota (402) is not kept: after the plan is raised the retry runs", async () => {
    const tenant = await createTenant(api.db, { quota: 0 });
    const key = randomUUID();
    expect((await verify(tenant, TELEBIRR, key)).status).toBe(402);
    await query("update businesses set monthly_quota = 5 where id = ?", [tenant.businessId]);
    const retry = await verify(tenant, TELEBIRR, key);
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe("false");
    expect(retry.body).toMatchObject({ success: true });
  });
});

describe("expiry and abandoned claims", () => {
  it("a key older than 24 hours runs anew", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    await verify(tenant, TELEBIRR, key);
    await query(`update idempotency_keys set created_at = now() - interval '25 hours' where "key" = ?`, [
      key,
    ]);
    const later = await verify(tenant, TELEBIRR, key);
    expect(later.replayed).toBe("false");
    expect(later.body).toMatchObject({ success: false, duplicate: true });
    const [row] = await storedKeys(key);
    // Claimed anew: dated now, not 25 hours back (an hour apart is no timing bound).
    expect(Date.now() - new Date(row?.created_at ?? 0).getTime()).toBeLessThan(3_600_000);
  });

  it("expired keys of any API key are cleaned up by later claims", async () => {
    const tenant = await createTenant(api.db);
    const old = randomUUID();
    await verify(tenant, {}, old);
    await query(`update idempotency_keys set created_at = now() - interval '25 hours' where "key" = ?`, [
      old,
    ]);
    const stranger = await createTenant(api.db, { name: "Cleaner" });
    await verify(stranger, {}, randomUUID());
    expect(await storedKeys(old)).toEqual([]);
  });

  it("a claim left pending by a crashed process (its lease ran out) is taken over by the same request", async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const [apiKey] = await query<{ id: number }>("select id from api_keys where branch_id = ?", [
      tenant.branchId,
    ]);
    const fingerprint = await requestFingerprint(TELEBIRR, undefined);
    await query(
      `insert into idempotency_keys (api_key_id, "key", fingerprint, attempt, lease_until)
       values (?, ?, ?, ?, now() - interval '1 second')`,
      [apiKey?.id, key, fingerprint, randomUUID()],
    );
    const answer = await verify(tenant, TELEBIRR, key);
    expect(answer.status).toBe(200);
    expect(answer.replayed).toBe("false");
    expect(answer.body).toMatchObject({ success: true });
  });
});

describe("waiting for a key another request holds", () => {
  // The first request's claim lasts a minute: it is alive throughout these tests.
  const times = (waitMs: number, leaseMs = 60_000): KeyTimes => ({
    ttlMs: 24 * 3_600_000,
    leaseMs,
    waitUntil: Date.now() + waitMs,
    pollMs: 20,
  });

  async function pendingKey() {
    const tenant = await createTenant(api.db);
    const [apiKey] = await query<{ id: number }>("select id from api_keys where branch_id = ?", [
      tenant.branchId,
    ]);
    const scope = { apiKeyId: apiKey?.id ?? 0, key: randomUUID() };
    const attempt = await acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(0));
    expect(attempt.kind).toBe("claimed");
    return scope;
  }

  it("gives up with in_progress when the first request does not finish in time", async () => {
    const scope = await pendingKey();
    const started = Date.now();
    const outcome = await acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(300));
    expect(outcome).toEqual({ kind: "in_progress" });
    // Exception, a lower bound: waiting is the behaviour, nothing marks it from outside, and load can only
    // lengthen it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  /**
   * Starts a second request for the key while the first request's row is locked, as the first request's
   * own writes lock it; once the second waits on that lock, `first` runs in the locking transaction and
   * commits: the second request was waiting when the first one finished, whatever the machine's speed.
   */
  async function whileWaiting<T>(
    scope: { key: string },
    second: () => Promise<T>,
    first: (blocker: pg.Client) => Promise<unknown>,
  ): Promise<T> {
    const blocker = new pg.Client({ connectionString: api.db.url });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await blocker.query(`select 1 from idempotency_keys where "key" = $1 for update`, [scope.key]);
      const waiting = second();
      await until(async () => (await lockWaiters("%idempotency_keys%")) > 0, "the second request to wait");
      await first(blocker);
      await blocker.query("commit");
      return await waiting;
    } finally {
      await blocker.end();
    }
  }

  it("gets the first request's answer as soon as it is stored", async () => {
    const scope = await pendingKey();
    const outcome = await whileWaiting(
      scope,
      () => acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(60_000)),
      (first) =>
        first.query(`update idempotency_keys set status = 404, body = '{"a":1}' where "key" = $1`, [
          scope.key,
        ]),
    );
    expect(outcome).toEqual({ kind: "answered", status: 404, body: '{"a":1}' });
  });

  it("takes the key when the first request released it", async () => {
    const scope = await pendingKey();
    const outcome = await whileWaiting(
      scope,
      () => acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(60_000)),
      (first) => first.query(`delete from idempotency_keys where "key" = $1`, [scope.key]),
    );
    expect(outcome.kind).toBe("claimed");
  });

  it("takes over a claim whose lease ran out while it waited, and the first attempt can then store nothing", async () => {
    const tenant = await createTenant(api.db);
    const [apiKey] = await query<{ id: number }>("select id from api_keys where branch_id = ?", [
      tenant.branchId,
    ]);
    const scope = { apiKeyId: apiKey?.id ?? 0, key: randomUUID() };
    // A claim nobody renews, as a process that died leaves it.
    const dead = await acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(0, 300));
    expect(dead.kind).toBe("claimed");
    const retry = await acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(60_000));
    expect(retry.kind).toBe("claimed");
    if (dead.kind !== "claimed" || retry.kind !== "claimed") return;
    expect(await storeAnswer(api.db.orm.em.fork(), scope, dead.attempt, 200, "{}")).toBe(false);
    expect(await storeAnswer(api.db.orm.em.fork(), scope, retry.attempt, 200, '{"b":2}')).toBe(true);
  });

  it("never takes over a claim whose process keeps renewing it", async () => {
    const tenant = await createTenant(api.db);
    const [apiKey] = await query<{ id: number }>("select id from api_keys where branch_id = ?", [
      tenant.branchId,
    ]);
    const scope = { apiKeyId: apiKey?.id ?? 0, key: randomUUID() };
    const leases = keepLeases(api.db.orm, { leaseMs: 1_000, renewEveryMs: 100 });
    const live = await acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(0, 1_000));
    if (live.kind !== "claimed") throw new Error(`not claimed: ${live.kind}`);
    const release = leases.hold({ scope, attempt: live.attempt });
    try {
      // Twice the lease: without its renewals the claim would have been taken over.
      const retry = await acquireKey(api.db.orm.em.fork(), scope, "f".repeat(64), times(2_000));
      expect(retry).toEqual({ kind: "in_progress" });
    } finally {
      release();
    }
  });

  it("refuses another request at once", async () => {
    const scope = await pendingKey();
    const outcome = await acquireKey(api.db.orm.em.fork(), scope, "e".repeat(64), times(5_000));
    expect(outcome).toEqual({ kind: "mismatch" });
  });
});

describe("a malformed Idempotency-Key", () => {
  it.each([
    ["x".repeat(256), "The idempotency key may not be greater than 255 characters."],
    ["two words", "The idempotency key format is invalid."],
    ["clé", "The idempotency key format is invalid."],
    ["", "The idempotency key field is required."],
  ])("%j is a 422 and runs nothing", async (key, message) => {
    const tenant = await createTenant(api.db);
    const answer = await verify(tenant, TELEBIRR, key);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      message: "The given data was invalid.",
      errors: { idempotency_key: [message] },
    });
    expect(await verificationRows(tenant)).toBe(0);
  });

  it("255 visible characters are accepted", async () => {
    const tenant = await createTenant(api.db);
    const answer = await verify(tenant, TELEBIRR, "~".repeat(255));
    expect(answer.status).toBe(200);
  });
});
