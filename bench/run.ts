/**
 * `npm run bench` (issue 7): the service in its own process against the bank simulator on loopback and a
 * scratch PostgreSQL database; prints the figures with their goals and writes bench/results.json.
 *
 *   npm run bench                      every scenario
 *   npm run bench -- --only=1,4        some of them (setup is shared; 7 and 14 write a million rows each)
 *   npm run bench -- --profile         also a V8 CPU profile of the service (--cpu-prof), path printed
 */
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { startFakeTelegram } from "../fakes/telegram.js";
import { openOrm } from "../src/db/orm.js";
import { startSimulator } from "../src/simulator/server.js";
import { type BenchContext, createBenchTenant, verifier } from "./context.js";
import { scratchDatabase } from "./database.js";
import type { Figure, ScenarioResult } from "./figures.js";
import { clientPool } from "./load.js";
import { referenceWorkMs } from "./machine-speed.js";
import { bareServerCpuMs, PACED_RATE } from "./machine-wake.js";
import { machine, table, writeResults } from "./report.js";
import { bot } from "./scenarios/bot.js";
import { collapse } from "./scenarios/collapse.js";
import { deadline } from "./scenarios/deadline.js";
import { exportCsv } from "./scenarios/export.js";
import { history } from "./scenarios/history.js";
import { ocr } from "./scenarios/ocr.js";
import { engineOverhead } from "./scenarios/open-loop.js";
import { parsing } from "./scenarios/parsing.js";
import { photos } from "./scenarios/photos.js";
import { qr } from "./scenarios/qr.js";
import { reading } from "./scenarios/reading.js";
import { restart } from "./scenarios/restart.js";
import { slowBanks } from "./scenarios/slow-banks.js";
import { throughput } from "./scenarios/throughput.js";
import { startServiceChild } from "./service.js";
import { benchBanks } from "./sim-bank.js";
import { warmUp } from "./warm-up.js";

const BOT_TOKEN = "123456:BENCH-TOKEN-0123456789abcdefABCDEF";
const RESULTS_FILE = path.resolve(import.meta.dirname, "results.json");
/** The whole bench must finish within 10 minutes (issue 7); past that it stops and says so. */
const TIME_LIMIT_MS = 10 * 60_000;

interface Scenario {
  number: number;
  name: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}

// Order matters: 3 runs first, on a freshly started service, so its peak RSS is that of the slow-bank
// burst (VmHWM only grows); 7 runs last, so the million rows do not sit under the verify scenarios.
const SCENARIOS: Scenario[] = [
  { number: 3, name: "slow banks", run: slowBanks },
  { number: 1, name: "engine overhead, open loop", run: engineOverhead },
  { number: 2, name: "throughput", run: throughput },
  { number: 4, name: "collapse", run: collapse },
  { number: 5, name: "parsing", run: parsing },
  { number: 6, name: "OCR", run: () => ocr() },
  { number: 7, name: "history", run: history },
  { number: 8, name: "bot", run: bot },
  { number: 9, name: "reading receipt text", run: () => reading() },
  { number: 10, name: "deadline of a verification", run: deadline },
  // Its own service processes on an embedded PostgreSQL of their own: nothing shared with the others.
  { number: 11, name: "restart after kill -9", run: () => restart() },
  { number: 12, name: "QR codes", run: () => qr() },
  { number: 13, name: "reading photos", run: () => photos() },
  // Last: its million rows (a branch of their own) sit under nothing else.
  { number: 14, name: "CSV export", run: exportCsv },
];

const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",")
  .map(Number);
const profile = args.includes("--profile");
const selected = SCENARIOS.filter((s) => !only || only.includes(s.number));

const limit = setTimeout(() => {
  console.error(`bench: over the ${TIME_LIMIT_MS / 60_000}-minute limit, stopping`);
  process.exit(2);
}, TIME_LIMIT_MS);
limit.unref();

const startedAt = performance.now();
const loadAtStart = Math.round((loadavg()[0] ?? 0) * 100) / 100;
const referenceMs = referenceWorkMs();
const bareServer = await bareServerCpuMs();
const work = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-"));
const cleanup: (() => Promise<unknown>)[] = [];
let failed = false;
try {
  log("starting PostgreSQL, the simulator and the service");
  const db = await scratchDatabase();
  cleanup.unshift(() => db.drop());
  const orm = await openOrm({ clientUrl: db.url, poolMax: 4 });
  cleanup.unshift(() => orm.close(true));
  const postgres = `PostgreSQL ${await serverVersion(orm)} (${db.server})`;
  const sim = await startSimulator(await benchBanks());
  cleanup.unshift(() => sim.close());
  const tenant = await createBenchTenant(orm);
  const telegram = await startFakeTelegram({ token: BOT_TOKEN });
  cleanup.unshift(() => telegram.close());
  const profileDir = profile ? path.join(work, "profile") : undefined;
  // The per-key rate limit is off: the bench sends thousands of requests a minute with one key.
  const serviceEnv = {
    DATABASE_URL: db.url,
    BANK_ORIGIN_OVERRIDES: sim.overrides,
    LOG_LEVEL: "info",
    API_RATE_LIMIT: "0",
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  };
  const startService = (workers: number, name: string) =>
    startServiceChild({
      env: { ...serviceEnv, WEB_CONCURRENCY: String(workers) },
      logFile: path.join(work, `${name}.log`),
      listeners: workers,
      ...(profileDir ? { cpuProfileDir: profileDir } : {}),
    });
  // As deployed: one worker per core (WEB_CONCURRENCY's default).
  const workers = availableParallelism();
  const service = await startService(workers, "service");
  cleanup.unshift(() => service.stop());
  const api = clientPool(service.url, 1100);
  const simClient = clientPool(sim.url, 64);
  cleanup.unshift(() => Promise.all([api.close(), simClient.close()]));
  const ctx: BenchContext = {
    service,
    sim,
    api,
    simClient,
    orm,
    tenant,
    telegram,
    workers,
    startService,
    verify: verifier(api, tenant.verifyBranch.key),
    verifierOf(other) {
      const pool = clientPool(other.url, 64);
      cleanup.unshift(() => pool.close());
      return verifier(pool, tenant.verifyBranch.key);
    },
  };

  const warm = await warmUp(ctx);
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {
    workers: { count: workers, connections: service.connections },
    warmUp: { ...warm, serviceRssMb: service.memory()?.currentMb ?? null },
  };
  for (const scenario of selected) {
    log(`${scenario.number}. ${scenario.name}`);
    const began = performance.now();
    const result = await scenario.run(ctx);
    figures.push(...result.figures);
    details[String(scenario.number)] = {
      seconds: Math.round((performance.now() - began) / 100) / 10,
      ...result.details,
    };
  }
  details.servicePeakRssMb = service.memory()?.peakMb ?? null;
  figures.sort((a, b) => a.scenario - b.scenario);

  const durationSeconds = Math.round((performance.now() - startedAt) / 1000);
  // After the service has stopped: the machine as quiet as at the start.
  await service.stop();
  const info = machine(postgres, loadAtStart, { start: referenceMs, end: referenceWorkMs() }, bareServer);
  console.log(`\n${table(figures)}\n`);
  console.log(
    `${info.cpu}, ${info.cores} cores, ${info.memoryGb} GB, Node ${info.node}, ${info.postgres}; ` +
      `${workers} workers (${service.connections}); ${durationSeconds} s`,
  );
  console.log(`load average (1 min) at start ${info.loadAverage.start}, at end ${info.loadAverage.end}`);
  const { start, end } = info.referenceWorkMs;
  console.log(
    `reference work ${start} ms at start, ${end} ms at end (bench/machine-speed.ts: lower is faster)`,
  );
  if (Math.max(start, end) > 1.25 * Math.min(start, end)) {
    console.log("the machine's speed changed during the run: compare its figures with care");
  }
  if (bareServer) {
    console.log(
      `a bare node:http server's CPU per request: ${bareServer.paced} ms at ${PACED_RATE}/s, ${bareServer.saturated} ms ` +
        "saturated (bench/machine-wake.ts: what waking an idle process costs here)",
    );
  }
  await writeResults(RESULTS_FILE, { machine: info, durationSeconds, figures, details });
  console.log(`written: ${path.relative(process.cwd(), RESULTS_FILE)}`);
  if (profileDir) console.log(`service CPU profile (after it stops): ${profileDir}`);
} catch (error) {
  failed = true;
  console.error(error);
  console.error(`service log kept in ${work}`);
} finally {
  for (const step of cleanup) await step().catch((error: unknown) => console.error("cleanup:", error));
  if (!failed && !profile) await rm(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function log(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`[${seconds.padStart(5)} s] ${message}`);
}

async function serverVersion(orm: Awaited<ReturnType<typeof openOrm>>): Promise<string> {
  const rows: { v: string }[] = await orm.em
    .getConnection()
    .execute("select current_setting('server_version') as v");
  return rows[0]?.v ?? "unknown";
}
