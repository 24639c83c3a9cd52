import { Writable } from "node:stream";
import { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratorConfig } from "../../src/db/migrate.js";
import {
  addComingMonths,
  addMonthsBetween,
  dropMonthsBefore,
  startHistoryMonths,
} from "../../src/history/months.js";
import { createLogger } from "../../src/logger.js";
import { createTenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

// `verifications` partitioned by month (issue 48): the migration converts a table that holds history, the
// service adds the coming months, and HISTORY_RETENTION_MONTHS drops whole past months with their claims.
// Each step builds on the one before, in one database.

let db: TestDatabase;
let migrator: MikroORM;
beforeAll(async () => {
  db = await createTestDatabase();
  migrator = await MikroORM.init(migratorConfig({ clientUrl: db.url, poolMax: 1 }));
});
afterAll(async () => {
  await migrator?.close(true);
  await db?.drop();
});

const sql = <T>(query: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(query, params);
const kindOf = async (table: string) =>
  (await sql<{ relkind: string }>("select relkind::text from pg_class where relname = ?", [table]))[0]
    ?.relkind;
const everyRow = () =>
  sql<{ row: string }>("select row_to_json(v)::text as row from verifications v order by id");
const partitionOf = async (transactionNumber: string) =>
  (
    await sql<{ partition: string }>(
      "select tableoid::regclass::text as partition from verifications where transaction_number = ?",
      [transactionNumber],
    )
  ).map((row) => row.partition);

/** Inserts a verification of `reference` at `at`, as the pre-partition schema allows. */
const insert = (branchId: number, reference: string, at: string, success: boolean) =>
  sql(
    `insert into verifications (branch_id, bank, transaction_number, success, exists, verification_method,
       source_type, source_label, created_at)
     values (?, 'telebirr', ?, ?, true, 'reference', 'api', 'test', ?::timestamptz)`,
    [branchId, reference, success, at],
  );

let branchId: number;

describe("verifications partitioned by month", () => {
  it("the migration converts a populated table in place: same rows, same ids, one partition a month", async () => {
    await migrator.getMigrator().down();
    expect(await kindOf("verifications")).toBe("r");
    ({ branchId } = await createTenant(db, { name: "Partitioned history" }));
    // 430 days back from 15 November 2026: every third one confirmed, some with tokens, some deleted.
    await sql(
      `insert into verifications (branch_id, bank, transaction_number, success, exists, verification_method,
         source_type, source_label, created_at, receipt_token, deleted_at)
       select ?, 'telebirr', 'DAY' || n, n % 3 = 0, true, 'reference', 'api', 'test',
         timestamptz '2026-11-15 12:00:00+03' - n * interval '1 day',
         case when n % 5 = 0 then 'token' || n end, case when n % 7 = 0 then now() end
       from generate_series(1, 430) as n`,
      [branchId],
    );
    await insert(branchId, "DAY3", "2026-11-15T10:00:00+03:00", false);
    // Far in the future, beyond the months the migration adds: kept in the default partition.
    await insert(branchId, "FUTURE", "2031-01-10T09:00:00+03:00", true);
    // A month's first minute in Addis Ababa is the previous day in UTC.
    await insert(branchId, "MIDNIGHT", "2026-10-01T00:00:00+03:00", false);
    const before = await everyRow();

    await migrator.getMigrator().up();

    expect(await kindOf("verifications")).toBe("p");
    expect(await everyRow()).toEqual(before);
    expect(await partitionOf("DAY1")).toEqual(["verifications_2026_11"]);
    expect(await partitionOf("DAY430")).toEqual(["verifications_2025_09"]);
    expect(await partitionOf("MIDNIGHT")).toEqual(["verifications_2026_10"]);
    expect(await partitionOf("FUTURE")).toEqual(["verifications_default"]);
    const claims = await sql<{
      transaction_number: string;
      verification_id: number;
      receipt_token: string | null;
    }>(
      "select transaction_number, verification_id, receipt_token from confirmed_receipts where branch_id = ?",
      [branchId],
    );
    const confirmed = await sql<{ transaction_number: string; id: number; receipt_token: string | null }>(
      "select transaction_number, id, receipt_token from verifications where branch_id = ? and success",
      [branchId],
    );
    expect(claims).toHaveLength(143 + 1); // every third of 430 days, and FUTURE
    expect(new Map(claims.map((c) => [c.transaction_number, [c.verification_id, c.receipt_token]]))).toEqual(
      new Map(confirmed.map((v) => [v.transaction_number, [v.id, v.receipt_token]])),
    );
  });

  it("keeps refusing a second confirmation, and new ids follow the old ones", async () => {
    await expect(insert(branchId, "DAY3", "2026-11-20T10:00:00+03:00", true)).rejects.toThrow(
      /confirmed_receipts_pkey/,
    );
    const [last] = await sql<{ id: number }>("select max(id)::int as id from verifications");
    await insert(branchId, "NEW1", "2026-11-20T10:00:00+03:00", true);
    const [added] = await sql<{ id: number }>(
      "select id from verifications where transaction_number = 'NEW1'",
    );
    expect(added?.id).toBeGreaterThan(last?.id ?? Number.POSITIVE_INFINITY);
  });

  it("undoing the migration gives the plain table back with every row", async () => {
    const before = await everyRow();
    await migrator.getMigrator().down();
    expect(await kindOf("verifications")).toBe("r");
    expect(await everyRow()).toEqual(before);
    await migrator.getMigrator().up();
    expect(await everyRow()).toEqual(before);
  });

  it("adds the coming months once, however often it is asked, and takes over the default partition's rows", async () => {
    const em = db.orm.em.fork();
    await addComingMonths(em, new Date("2030-11-05T12:00:00+03:00"));
    await addComingMonths(em, new Date("2030-11-05T12:00:00+03:00"));
    for (const month of ["2030_11", "2030_12", "2031_01", "2031_02"]) {
      expect(await kindOf(`verifications_${month}`)).toBe("r");
    }
    expect(await kindOf("verifications_2031_03")).toBeUndefined();
    expect(await partitionOf("FUTURE")).toEqual(["verifications_2031_01"]);
    await addMonthsBetween(em, new Date("2019-01-20T00:00:00Z"), new Date("2019-02-20T00:00:00Z"));
    expect(await kindOf("verifications_2019_01")).toBe("r");
    expect(await kindOf("verifications_2019_02")).toBe("r");
  });

  it("HISTORY_RETENTION_MONTHS drops whole months with their claims, and nothing newer", async () => {
    const em = db.orm.em.fork();
    await insert(branchId, "OLD", "2018-06-01T09:00:00+03:00", true);
    expect(await partitionOf("OLD")).toEqual(["verifications_default"]);
    // Twelve months back from 15 November 2026 is within November 2025: everything before it goes.
    const done = await dropMonthsBefore(em, new Date("2026-11-15T12:00:00+03:00"), 12);
    expect(done.dropped).toEqual([
      "verifications_2019_01",
      "verifications_2019_02",
      ...["09", "10"].map((month) => `verifications_2025_${month}`),
    ]);
    // Claims of days 380–430 (before 1 November 2025, Addis Ababa) confirmed every third day: 17. And OLD's
    // claim and row.
    expect(done.deleted).toBe(17 + 2);
    expect(await kindOf("verifications_2025_10")).toBeUndefined();
    expect(await kindOf("verifications_2025_11")).toBe("r");
    const [oldest] = await sql<{ at: string }>(
      "select to_char(min(created_at) at time zone interval '+03:00', 'YYYY-MM-DD') as at from verifications",
    );
    expect(oldest?.at).toBe("2025-11-01");
    const [orphans] = await sql<{ n: number }>(
      `select count(*)::int as n from confirmed_receipts c where not exists (
         select 1 from verifications v where v.id = c.verification_id and v.created_at = c.created_at)`,
    );
    expect(orphans?.n).toBe(0);
    // A forgotten receipt may be confirmed again; a kept one may not.
    await expect(insert(branchId, "DAY381", "2026-11-21T10:00:00+03:00", true)).resolves.toBeDefined();
    await expect(insert(branchId, "DAY351", "2026-11-21T10:00:00+03:00", true)).rejects.toThrow(
      /confirmed_receipts_pkey/,
    );
    expect(await dropMonthsBefore(em, new Date("2026-11-15T12:00:00+03:00"), 12)).toEqual({
      dropped: [],
      deleted: 0,
    });
  });

  it("a running service adds the coming months and applies the retention at start, and says what it dropped", async () => {
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    // A year later: November 2026's month is then past twelve months and goes, December's stays.
    const months = startHistoryMonths(
      db.orm,
      12,
      createLogger("info", sink),
      () => new Date("2027-12-10T09:00:00Z"),
    );
    await months.stop();
    for (const month of ["2027_12", "2028_01", "2028_02", "2028_03"]) {
      expect(await kindOf(`verifications_${month}`)).toBe("r");
    }
    expect(await kindOf("verifications_2026_11")).toBeUndefined();
    expect(await kindOf("verifications_2026_12")).toBe("r");
    const line = logs
      .map((text) => JSON.parse(text))
      .find((entry) => entry.msg === "history past retention dropped");
    expect(line?.dropped).toContain("verifications_2026_11");
  });
});
