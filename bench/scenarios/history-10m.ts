import { createBranch } from "../../src/admin/businesses.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import type { BenchContext } from "../context.js";
import { atMost, recorded, type ScenarioResult } from "../figures.js";
import { round } from "../stats.js";
import { addHistoryMonths, historyRows, pageTimes } from "./history.js";

const ROWS = 10_000_000;
/** Written in slices, so that the log shows progress and no one statement holds 10 M rows of WAL. */
const SLICE = 1_000_000;
/** 24 months back, one row every 6.3 s. */
const EVERY_SECONDS = (2 * 365 * 24 * 3600) / ROWS;
const PAGES = { first: "", filtered: "period=30d&success=false" };

/**
 * 16. History at ten million rows (issue 48): one branch's two years at a national service's pace, written
 * by INSERT … SELECT FROM generate_series in slices of a million into the month partitions and analysed. Then a first page and a filtered page of GET /verifications (p50 of 60, the
 * larger of the two is the figure), and the CSV export of the last 30 days (about 400,000 rows).
 * Not part of a plain run (loading takes minutes and gigabytes): `npm run bench -- --only=16`.
 */
export async function historyTenMillion(ctx: BenchContext): Promise<ScenarioResult> {
  const em = ctx.orm.em.fork();
  const { id: branchId } = await createBranch(em, ctx.tenant.businessId, "Bench ten million");
  const { key } = await createApiKey(em, branchId, "manager", { label: "Bench ten million key" });
  const connection = ctx.orm.em.getConnection();
  const loadStarted = performance.now();
  await addHistoryMonths(em, ROWS * EVERY_SECONDS);
  for (let from = 1; from <= ROWS; from += SLICE) {
    await connection.execute(
      historyRows(branchId, { from, to: from + SLICE - 1, everySeconds: EVERY_SECONDS }),
    );
  }
  await connection.execute("analyze verifications");
  const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);

  const headers = { authorization: `Bearer ${key}` };
  const pages: Record<string, Awaited<ReturnType<typeof pageTimes>>> = {};
  for (const [name, filter] of Object.entries(PAGES)) pages[name] = await pageTimes(ctx, filter, headers);

  const started = performance.now();
  const response = await ctx.api.request({
    path: "/api/v1/verifications/export?format=csv&period=30d",
    method: "GET",
    headers,
  });
  if (response.statusCode !== 200)
    throw new Error(`export: ${response.statusCode} ${await response.body.text()}`);
  let lines = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++;
  }
  const exportSeconds = (performance.now() - started) / 1000;
  const exported = lines - 1;

  const p50 = Math.max(...Object.values(pages).map((page) => page.p50));
  return {
    figures: [
      atMost("history.p50_10m", 16, "history page of 100 at 10 M rows, p50 (first, filtered)", p50, "ms", 20),
      recorded(
        "export.rows_per_s_10m",
        16,
        `CSV export of 30 days (${exported} rows) at 10 M rows, rows per second`,
        Math.round(exported / exportSeconds),
        "/s",
      ),
    ],
    details: { rows: ROWS, loadSeconds, pages, exported, exportSeconds: round(exportSeconds, 2) },
  };
}
