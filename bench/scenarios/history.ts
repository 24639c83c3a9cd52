import type { EntityManager } from "@mikro-orm/postgresql";
import { addMonthsBetween } from "../../src/history/months.js";
import type { BenchContext } from "../context.js";
import { atMost, type Figure, type ScenarioResult } from "../figures.js";
import { exchange } from "../load.js";
import { round, summarize } from "../stats.js";

const ROWS = 1_000_000;
const WARM_UP = 10;
const REQUESTS = 60;
/** Each filter of GET /verifications, with a 100-row page. */
const FILTERS = [
  "",
  "period=7d",
  "period=15d",
  "period=30d",
  "period=3m",
  "period=6m",
  "period=12m",
  "success=true",
  "success=false",
  "period=30d&success=false",
];

/**
 * 7. History: a million verifications in one branch (two years, one every 63 s; 9 in 10 found, 3 in 4 of
 * those confirmed, 1 in 100 deleted), written by one INSERT … SELECT FROM generate_series and analysed;
 * then GET /verifications one request at a time, per filter.
 */
export async function history(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const connection = ctx.orm.em.getConnection();
  await addHistoryMonths(ctx.orm.em.fork(), ROWS * 63);
  await connection.execute(historyRows(ctx.tenant.historyBranch.id, { from: 1, to: ROWS, everySeconds: 63 }));
  await connection.execute("analyze verifications");
  const loadSeconds = round((performance.now() - started) / 1000, 1);

  const figures: Figure[] = [];
  const details: Record<string, unknown> = { rows: ROWS, loadSeconds };
  const headers = { authorization: `Bearer ${ctx.tenant.historyBranch.key}` };
  for (const filter of FILTERS) {
    const summary = await pageTimes(ctx, filter, headers);
    details[filter || "none"] = summary;
    figures.push(
      atMost(
        `history.${filter || "none"}.p50`,
        7,
        `history page of 100, ${filter || "no filter"}, p50`,
        summary.p50,
        "ms",
        20,
      ),
    );
  }
  return { figures, details };
}

/** GET /verifications for a page of 100 with `filter`, one request at a time: the times after a warm-up. */
export async function pageTimes(
  ctx: BenchContext,
  filter: string,
  headers: Record<string, string>,
): Promise<ReturnType<typeof summarize>> {
  const path = `/api/v1/verifications?limit=100${filter ? `&${filter}` : ""}`;
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const result = await exchange(ctx.api, path, { headers });
    const rows = (result.body as { verifications?: unknown[] }).verifications?.length;
    if (result.status !== 200 || rows !== 100)
      throw new Error(`history ${path}: ${result.status}, ${rows} rows`);
    if (i >= WARM_UP) samples.push(result.ms);
  }
  return summarize(samples);
}

/** The month partitions of the `seconds` before now, which history loaded in the past needs (src/history/months.ts). */
export function addHistoryMonths(em: EntityManager, seconds: number): Promise<void> {
  const now = new Date();
  return addMonthsBetween(em, new Date(now.getTime() - seconds * 1000), now);
}

/**
 * History rows `from`..`to` of a branch, one every `everySeconds` back from now: by i % 10, 0 not found,
 * the rest found, of which by i % 4, 1 a duplicate and the others confirmed; 1 in 100 deleted.
 */
export function historyRows(
  branchId: number,
  rows: { from: number; to: number; everySeconds: number },
): string {
  const back = `i * interval '${rows.everySeconds} seconds'`;
  // Deleted a little after it was made (60 s in 63).
  const deletedBack = `i * interval '${(rows.everySeconds * 60) / 63} seconds'`;
  return `
    insert into verifications (branch_id, bank, transaction_number, account_number, success, exists, message,
      status, transaction_type, amount, currency, transaction_date, payer_name, payer_account, receiver_name,
      receiver_account, description, source_url, receipt_token, sandbox, verification_method, source_type,
      source_label, bank_answer, created_at, deleted_at)
    select ${branchId}, 'telebirr', 'H' || lpad(to_hex(i), 9, '0'), null, found and i % 4 <> 1, found,
      case when not found then 'Transaction not found.' when i % 4 = 1 then 'This transaction was already verified.' end,
      case when found then 'completed' end,
      case when found then 'Send Money to Registered Customer' end,
      case when found then (i % 5000) + 0.5 end,
      case when found then 'ETB' end,
      case when found then to_char(now() - ${back}, 'YYYY-MM-DD"T"HH24:MI:SS"+03:00"') end,
      case when found then 'Dawit Mekonnen Bekele' end,
      case when found then '2519****2872' end,
      case when found then 'Hana Tesfaye Alemu' end,
      case when found then '2519****4025' end,
      null, null, null, false, 'official', 'api', 'Bench history key',
      case when found and i % 4 <> 1 then jsonb_build_object('reference', 'H' || lpad(to_hex(i), 9, '0'),
        'receipt', jsonb_build_object('status', 'completed', 'amount', (i % 5000) + 0.5, 'currency', 'ETB',
          'payerName', 'Dawit Mekonnen Bekele', 'payerAccount', '2519****2872',
          'receiverName', 'Hana Tesfaye Alemu', 'receiverAccount', '2519****4025')) end,
      now() - ${back},
      case when i % 100 = 0 then now() - ${deletedBack} end
    from generate_series(${rows.from}, ${rows.to}) as i, lateral (select i % 10 <> 0 as found) f`;
}
