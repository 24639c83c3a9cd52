import { createBranch } from "../../src/admin/businesses.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { OUTCOME_MESSAGES } from "../../src/engine/types.js";
import type { BenchContext } from "../context.js";
import { atMost, recorded, type ScenarioResult } from "../figures.js";
import { residentKb } from "../service.js";
import { round } from "../stats.js";
import { addHistoryMonths } from "./history.js";

const ROWS = 1_000_000;
/** How often the service's resident set is read while the export streams. */
const SAMPLE_MS = 50;
/** Exporting a million rows must not grow the process's memory by more than this. */
const RSS_GROWTH_LIMIT_MB = 50;
const NEWLINE = 0x0a;

/**
 * 14. CSV export: a million verifications in a branch of its own (confirmed, not found, duplicates
 * of the row before, paid to another account; a quarter of the payers and a fifth of the receivers Amharic,
 * those receivers with a comma to quote; the large bank_answer on confirmed rows), written by one INSERT …
 * SELECT FROM generate_series and analysed; then GET /api/v1/verifications/export with a manager key, read
 * to the end counting lines. The service's processes' VmRSS is read every 50 ms and their VmHWM (reset just
 * before) at the end: the figure is the largest growth of one process (the worker that streamed) over its
 * resident set just before the request.
 *
 * The export reads its rows through src/db/each-row.ts: each row becomes its CSV line as it arrives, and the
 * stalled-server limit is its own timer instead of pg's query_timeout, whose timer closure holds the query;
 * with pg's, V8 promoted nearly every line read and the worker grew by ~170–200 MB of garbage waiting for a
 * full collection (measured: 170.5 MB with it, 17.7 MB with the export's own timer).
 */
export async function exportCsv(ctx: BenchContext): Promise<ScenarioResult> {
  const em = ctx.orm.em.fork();
  const { id: branchId } = await createBranch(em, ctx.tenant.businessId, "Bench export");
  const { key } = await createApiKey(em, branchId, "manager", { label: "Bench export key" });
  const loadStarted = performance.now();
  const connection = ctx.orm.em.getConnection();
  await addHistoryMonths(em, ROWS * 63);
  await connection.execute(insertRows(branchId));
  await connection.execute("analyze verifications");
  const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);

  const pids = ctx.service.processes();
  const peakReset = ctx.service.resetPeak();
  const before = new Map(pids.map((pid) => [pid, residentKb(pid)?.currentKb ?? Number.NaN]));
  const sampled = new Map(before);
  const sample = setInterval(() => {
    for (const pid of pids) {
      const now = residentKb(pid)?.currentKb;
      if (now !== undefined) sampled.set(pid, Math.max(sampled.get(pid) ?? 0, now));
    }
  }, SAMPLE_MS);

  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  let head = Buffer.alloc(0);
  try {
    const response = await ctx.api.request({
      path: "/api/v1/verifications/export?format=csv",
      method: "GET",
      headers: { authorization: `Bearer ${key}` },
    });
    if (response.statusCode !== 200) {
      throw new Error(`export: ${response.statusCode} ${await response.body.text()}`);
    }
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      if (head.length < 3) head = Buffer.concat([head, chunk.subarray(0, 3)]);
      bytes += chunk.length;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) lines++;
    }
  } finally {
    clearInterval(sample);
  }
  const seconds = (performance.now() - started) / 1000;

  const rows = lines - 1;
  if (!head.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])))
    throw new Error("export: no byte-order mark");
  if (rows !== ROWS) throw new Error(`export: ${rows} rows instead of ${ROWS}`);

  const processes = pids.map((pid) => {
    const start = before.get(pid) ?? Number.NaN;
    // VmHWM catches a peak between two samples; it only counts when it was reset just before.
    const peak = Math.max(sampled.get(pid) ?? 0, peakReset ? (residentKb(pid)?.peakKb ?? 0) : 0);
    return {
      pid,
      role: pid === ctx.service.pid ? "primary" : "worker",
      beforeMb: round(start / 1024, 1),
      peakMb: round(peak / 1024, 1),
      growthMb: round((peak - start) / 1024, 1),
    };
  });
  const growthMb = Math.max(...processes.map((p) => p.growthMb));
  const rowsPerS = Math.round(rows / seconds);
  return {
    figures: [
      recorded("export.rows_per_s", 14, "CSV export of 1,000,000 rows, rows per second", rowsPerS, "/s"),
      atMost(
        "export.rss_growth",
        14,
        "CSV export of 1,000,000 rows, RSS growth of the streaming worker",
        growthMb,
        "MB",
        RSS_GROWTH_LIMIT_MB,
      ),
    ],
    details: {
      rows,
      loadSeconds,
      seconds: round(seconds, 2),
      firstByteMs: round(firstByteMs, 1),
      megabytes: round(bytes / 1024 / 1024, 1),
      peakReset,
      sampleMs: SAMPLE_MS,
      processes,
    },
  };
}

/** A million rows, two years back, one every 63 s; by i % 10: 0 not found, 3 duplicate of i − 1, 7 paid elsewhere. */
function insertRows(branchId: number): string {
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
  return `
    insert into verifications (branch_id, bank, transaction_number, account_number, success, exists, message,
      status, transaction_type, amount, currency, transaction_date, payer_name, payer_account, receiver_name,
      receiver_account, description, source_url, receipt_token, sandbox, verification_method, source_type,
      source_label, bank_answer, created_at, deleted_at)
    select ${branchId}, 'telebirr', 'X' || lpad(to_hex(case when kind = 3 then i - 1 else i end), 9, '0'), null,
      kind not in (0, 3, 7), kind <> 0,
      case kind when 0 then ${text(OUTCOME_MESSAGES.not_found)} when 3 then ${text(OUTCOME_MESSAGES.duplicate)}
        when 7 then ${text(OUTCOME_MESSAGES.wrong_account)} end,
      case when kind <> 0 then 'completed' end,
      case when kind <> 0 then 'Send Money to Registered Customer' end,
      case when kind <> 0 then (i % 50000) + 0.25 end,
      case when kind <> 0 then 'ETB' end,
      case when kind <> 0 then to_char(now() - i * interval '63 seconds', 'YYYY-MM-DD"T"HH24:MI:SS"+03:00"') end,
      case when kind = 0 then null when i % 4 = 0 then 'አበበ ከበደ ተሰማ' else 'Dawit Mekonnen Bekele' end,
      case when kind <> 0 then '2519****2872' end,
      case when kind = 0 then null when i % 5 = 0 then 'ሐና ተስፋዬ, ቦሌ' else 'Hana Tesfaye Alemu' end,
      case when kind <> 0 then '2519****4025' end,
      null, null, null, false, 'official',
      case when i % 3 = 0 then 'telegram' else 'api' end,
      case when i % 3 = 0 then 'Cashier Tigist' else 'Bench export key' end,
      case when kind not in (0, 3, 7) then jsonb_build_object('reference', 'X' || lpad(to_hex(i), 9, '0'),
        'receipt', jsonb_build_object('status', 'completed', 'amount', (i % 50000) + 0.25, 'currency', 'ETB',
          'payerName', 'Dawit Mekonnen Bekele', 'payerAccount', '2519****2872',
          'receiverName', 'Hana Tesfaye Alemu', 'receiverAccount', '2519****4025')) end,
      now() - i * interval '63 seconds',
      null
    from generate_series(1, ${ROWS}) as i, lateral (select i % 10 as kind) k`;
}
