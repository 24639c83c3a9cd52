import { createBranch } from "../../src/admin/businesses.js";
import { PAIRS } from "../ab.js";
import type { BenchContext } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { median, round } from "../stats.js";

/** Inserts per run; PAIRS pairs of runs, one run on each table. */
const INSERTS = 5_000;
const UNPARTITIONED = "bench_verifications_unpartitioned";

/**
 * 17. What a verification's record costs to write in the month-partitioned `verifications` (its claim on the
 * receipt written by a trigger into confirmed_receipts) against the table before partitioning: one table,
 * with the partial unique index that was the guarantee then. The twin is made beside it in the same database,
 * and the two are written in alternation, as an A/B run compares builds: PAIRS pairs of INSERTS single-row
 * INSERTs one after another, as the hot path writes them (3 in 4 confirmed), the order swapped each pair.
 * The figure is the median of the pairs' ratios, partitioned / unpartitioned.
 */
export async function insertCost(ctx: BenchContext): Promise<ScenarioResult> {
  const em = ctx.orm.em.fork();
  const connection = ctx.orm.em.getConnection();
  const { id: branchId } = await createBranch(em, ctx.tenant.businessId, "Bench insert cost");
  await connection.execute(`drop table if exists ${UNPARTITIONED}`);
  for (const statement of unpartitionedTwin()) await connection.execute(statement);

  let run = 0;
  const timed = async (table: string): Promise<number> => {
    const prefix = `I${run++}-`;
    const started = performance.now();
    for (let i = 0; i < INSERTS; i++) {
      await connection.execute(INSERT_SQL(table), [
        branchId,
        `${prefix}${i}`,
        i % 4 !== 1,
        JSON.stringify(answer(i)),
      ]);
    }
    return (performance.now() - started) / INSERTS;
  };
  // One run of each first, unmeasured: both tables' first pages and the statements' plans are warm.
  await timed("verifications");
  await timed(UNPARTITIONED);
  const pairs: { partitioned: number; unpartitioned: number; ratio: number }[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? ["verifications", UNPARTITIONED] : [UNPARTITIONED, "verifications"];
    const ms: Record<string, number> = {};
    for (const table of order) ms[table] = await timed(table);
    const partitioned = ms.verifications ?? Number.NaN;
    const unpartitioned = ms[UNPARTITIONED] ?? Number.NaN;
    pairs.push({
      partitioned: round(partitioned, 3),
      unpartitioned: round(unpartitioned, 3),
      ratio: round(partitioned / unpartitioned, 3),
    });
  }
  await connection.execute(`drop table ${UNPARTITIONED}`);
  return {
    figures: [
      atMost(
        "ab.insert_ratio",
        17,
        "record insert, month-partitioned / one table (median of pairs)",
        median(pairs.map((p) => p.ratio)),
        "×",
        1.15,
      ),
    ],
    details: { inserts: INSERTS, pairs },
  };
}

/** The table as it was before partitioning (migrations up to Migration20261129030749), empty. */
function unpartitionedTwin(): string[] {
  const t = UNPARTITIONED;
  return [
    `create table ${t} (like verifications including defaults including constraints)`,
    `alter table ${t} add primary key (id)`,
    `create index on ${t} (branch_id, created_at desc, id desc) where deleted_at is null`,
    `create index on ${t} (branch_id, success, created_at desc, id desc) where deleted_at is null`,
    `create unique index on ${t} (branch_id, bank, transaction_number, sandbox) where success`,
    `create index on ${t} (branch_id, bank, receipt_token) where success and receipt_token is not null`,
    `alter table ${t} add foreign key (branch_id) references branches (id) on update cascade on delete cascade`,
  ];
}

const INSERT_SQL = (
  table: string,
) => `insert into ${table} (branch_id, bank, transaction_number, success, exists,
    message, status, transaction_type, amount, currency, transaction_date, payer_name, payer_account,
    receiver_name, receiver_account, verification_method, source_type, source_label, bank_answer, created_at)
  values (?, 'telebirr', ?, ?, true, null, 'completed', 'Send Money to Registered Customer', 1500.00, 'ETB',
    '2026-11-29T10:15:00+03:00', 'Dawit Mekonnen Bekele', '2519****2872', 'Hana Tesfaye Alemu', '2519****4025',
    'official', 'api', 'Bench insert key', ?::jsonb, now())
  returning id`;

function answer(i: number) {
  return {
    reference: `I${i}`,
    receipt: { status: "completed", amount: 1500, currency: "ETB", payerName: "Dawit Mekonnen Bekele" },
  };
}
