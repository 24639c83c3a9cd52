import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/auth/api-keys.js";
import { ApiKeySchema, BusinessSchema, InviteCodeSchema } from "../../src/db/entities/index.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { runScript } from "../support/processes.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const admin = (...args: string[]) => runScript("src/cli/admin.ts", args, { DATABASE_URL: db.url });
const json = async (...args: string[]) => {
  const result = await admin(...args, "--json");
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

// Each case starts the CLI as its own process (about 2 s each on a busy 2-core machine).
describe("npm run admin", { timeout: 120_000 }, () => {
  it("creates a business, a branch, keys and invites, and manages them", async () => {
    const business = await json("business:create", "--name", "Merkato Shop", "--quota", "500");
    expect(business).toMatchObject({ name: "Merkato Shop", monthly_quota: 500 });
    const branch = await json("branch:create", "--business", String(business.id), "--name", "Bole");
    const key = await json(
      "key:create",
      "--branch",
      String(branch.id),
      "--role",
      "cashier",
      "--label",
      "Till 1",
    );
    expect(key.key).toMatch(/^chk_[0-9A-Za-z]{43}$/);
    const sandbox = await json("key:create", "--branch", String(branch.id), "--role", "manager", "--test");
    expect(sandbox.key).toMatch(/^chk_test_/);

    const stored = await db.orm.em.fork().findOneOrFail(ApiKeySchema, key.id);
    expect(stored.keyHash).toBe(hashApiKey(key.key));

    const listed = await json("key:list", "--branch", String(branch.id));
    expect(listed.map((k: { id: number }) => k.id)).toEqual([sandbox.id, key.id]);
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const revoked = await json("key:revoke", "--id", String(key.id));
    expect(revoked.revoked_at).toBeTruthy();

    const invite = await json("telegram:invite", "--branch", String(branch.id), "--role", "manager");
    expect(invite.code).toMatch(/^[A-Za-z0-9_-]{20,64}$/);
    const storedInvite = await db.orm.em.fork().findOneOrFail(InviteCodeSchema, { code: invite.code });
    const days = (storedInvite.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    await json("plan:set", "--business", String(business.id), "--quota", "2000");
    expect((await db.orm.em.fork().findOneOrFail(BusinessSchema, business.id)).monthlyQuota).toBe(2000);
  });

  it("lists businesses and branches, so a key can be made without knowing the ids", async () => {
    const business = await json("business:create", "--name", "Kality Garage", "--quota", "40");
    const bole = await json("branch:create", "--business", String(business.id), "--name", "Bole");
    const piassa = await json("branch:create", "--business", String(business.id), "--name", "Piassa");
    await json("key:create", "--branch", String(bole.id), "--role", "cashier");
    await json("key:create", "--branch", String(bole.id), "--role", "manager", "--test");

    const businesses = await json("business:list");
    expect(businesses).toContainEqual({
      id: business.id,
      name: "Kality Garage",
      monthly_quota: 40,
      used_this_month: 0,
      branches: 2,
    });
    const branches = await json("branch:list", "--business", String(business.id));
    expect(branches).toEqual([
      { id: bole.id, business_id: business.id, business_name: "Kality Garage", name: "Bole", active_keys: 2 },
      {
        id: piassa.id,
        business_id: business.id,
        business_name: "Kality Garage",
        name: "Piassa",
        active_keys: 0,
      },
    ]);
    expect((await json("branch:list")).map((b: { id: number }) => b.id)).toEqual(
      expect.arrayContaining([bole.id, piassa.id]),
    );

    const text = await admin("branch:list", "--business", String(business.id));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^ +${bole.id}  Bole  \\(business ${business.id} "Kality Garage", 2 active keys\\)$`, "m"),
    );
    const keys = await admin("key:list", "--branch", String(bole.id));
    expect(keys.stdout).toMatch(/ sandbox {2}manager {2}active /);
    expect(keys.stdout).toMatch(/ live {5}cashier {2}active /);

    const missing = await admin("branch:list", "--business", "99999");
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe("Business 99999 does not exist.");
  });

  it("prints readable text by default", async () => {
    const result = await admin("business:create", "--name", "Piassa Cafe", "--quota", "10");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Created business \d+ "Piassa Cafe" with a monthly quota of 10\.$/m);
  });

  it.each([
    [[], /A command is required/],
    [["nope"], /Unknown command "nope"/],
    [["business:create", "--name", "X"], /--quota is required/],
    [["business:create", "--name", "X", "--quota=-5"], /--quota must be a whole number/],
    [["key:create", "--branch", "1", "--role", "owner"], /--role must be one of: cashier, manager, admin/],
    [["key:create", "--branch", "one", "--role", "admin"], /--branch must be a positive whole number/],
    [["key:list", "--branch", "1", "--colour", "red"], /Unknown option '--colour'/],
  ])("exits 2 with a clear message for %j", async (args, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Usage: npm run admin");
  });

  it("exits 1 when the record does not exist", async () => {
    const result = await admin("key:create", "--branch", "99999", "--role", "admin");
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("Branch 99999 does not exist.");
  });
});
