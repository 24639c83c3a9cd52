/**
 * `npm run bench`: the service in its own process against the bank simulator on loopback and a
 * scratch PostgreSQL database; prints the figures with their goals and writes bench/results.json.
 *
 *   npm run bench                      every scenario
 *   npm run bench -- --only=1,4        some of them (setup is shared; 7 and 14 write a million rows each)
 *   npm run bench -- --profile         also a V8 CPU profile of the service (--cpu-prof), path printed
 *   npm run bench -- --against <ref>   A/B: this build against another commit's (bench/ab.ts), scenarios
 *                                      3, 1 and 2 alternated in pairs, then 4 and 11 on this build alone;
 *                                      with --only, the scenarios chosen (those without a comparison run on
 *                                      this build alone)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { startSimulator } from "../src/simulator/server.js";
import { type Build, type ComparedScenario, type Comparison, compareBuilds, PAIRS } from "./ab.js";
import { type BenchContext, openBuild } from "./context.js";
import { databaseServer } from "./database.js";
import type { Figure, ScenarioResult } from "./figures.js";
import { clientPool } from "./load.js";
import { machine, table, writeResults } from "./report.js";
import { bot } from "./scenarios/bot.js";
import { collapse } from "./scenarios/collapse.js";
import { deadline } from "./scenarios/deadline.js";
import { exportCsv } from "./scenarios/export.js";
import { generatedPhrasings } from "./scenarios/generated-phrasings.js";
import { history } from "./scenarios/history.js";
import { historyTenMillion } from "./scenarios/history-10m.js";
import { insertCost } from "./scenarios/insert-cost.js";
import { ocr } from "./scenarios/ocr.js";
import { engineOverhead } from "./scenarios/open-loop.js";
import { parsing } from "./scenarios/parsing.js";
import { photos } from "./scenarios/photos.js";
import { qr } from "./scenarios/qr.js";
import { reading } from "./scenarios/reading.js";
import { restart } from "./scenarios/restart.js";
import { slowBanks } from "./scenarios/slow-banks.js";
import { throughput, throughputRate } from "./scenarios/throughput.js";
import { ROOT } from "./service.js";
import { benchBanks } from "./sim-bank.js";
import { warmUp } from "./warm-up.js";
import { otherBuild } from "./worktree.js";

const RESULTS_FILE = path.resolve(import.meta.dirname, "results.json");
/**
 * Past this the bench stops and says so: 10 minutes for a plain run; an A/B run is meant to take at most
 * 15 on 2 cores, its install included, and a machine busy with other work can double that.
 */
const TIME_LIMIT_MS = { plain: 10 * 60_000, ab: 30 * 60_000 };

interface Scenario {
  number: number;
  name: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
  /** How an A/B run compares it; without it, an A/B run runs it on this build alone. */
  compare?: Comparison;
  /** Left out of a run that does not name it with --only. */
  onlyWhenAsked?: boolean;
}

// Order matters: 3 runs first, on a freshly started service, so its peak RSS is that of the slow-bank
// burst (VmHWM only grows); 7 runs last, so the million rows do not sit under the verify scenarios.
const SCENARIOS: Scenario[] = [
  {
    number: 3,
    name: "slow banks",
    run: slowBanks,
    compare: { figure: "slow.last", id: "ab.slow_last_ratio", goal: { atMost: 1.2 } },
  },
  {
    number: 1,
    name: "engine overhead, open loop",
    run: engineOverhead,
    compare: { figure: "openloop.p99", id: "ab.openloop_p99_ratio", goal: { atMost: 1.25 } },
  },
  {
    number: 2,
    name: "throughput",
    run: throughput,
    // The rate with every worker only: a second service of one worker and the simulator's own rate say
    // nothing about one build against another, and would add a minute a pair.
    compare: {
      figure: "throughput.rate",
      id: "ab.throughput_ratio",
      goal: { atLeast: 0.85 },
      run: throughputRate,
    },
  },
  // Before 7 and 14 load their million rows: both tables it compares hold little.
  { number: 17, name: "record insert cost, partitioned", run: insertCost },
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
  { number: 13, name: "reading photos", run: photos },
  { number: 15, name: "reading generated phrasings", run: generatedPhrasings },
  // Last: its million rows (a branch of their own) sit under nothing else.
  { number: 14, name: "CSV export", run: exportCsv },
  // Asked for only (--only=16): ten million rows take minutes and gigabytes to write.
  { number: 16, name: "history at ten million rows", run: historyTenMillion, onlyWhenAsked: true },
];
/** What `--against` runs without --only: the compared scenarios, then collapse and start-up on this build. */
const AB_DEFAULT = [3, 1, 2, 4, 11];

const args = process.argv.slice(2);
const against =
  args.find((a) => a.startsWith("--against="))?.slice("--against=".length) ??
  (args.includes("--against") ? (args[args.indexOf("--against") + 1] ?? "") : undefined);
if (against !== undefined && (against === "" || against.startsWith("--"))) {
  console.error("bench: --against needs a git ref (a commit, a tag or a branch)");
  process.exit(2);
}
const only =
  args
    .find((a) => a.startsWith("--only="))
    ?.slice("--only=".length)
    .split(",")
    .map(Number) ?? (against ? AB_DEFAULT : undefined);
const profile = args.includes("--profile");
const selected = SCENARIOS.filter((s) => (only ? only.includes(s.number) : !s.onlyWhenAsked));

const cleanup: (() => Promise<unknown>)[] = [];
const defer = (step: () => Promise<unknown>) => {
  cleanup.unshift(step);
};
/** Runs the deferred steps once, whoever asks first (the run's end or a signal), and waits for them. */
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (let step = cleanup.shift(); step; step = cleanup.shift()) {
      await step().catch((error: unknown) => console.error("cleanup:", error));
    }
  })();
  return cleaning;
}
// Ctrl-C, a kill or the time limit still stop the services, drop the databases and remove the worktree.
// The first signal counts: npm passes a Ctrl-C on to the bench, which the terminal has sent it too. (tsx's
// own command line SIGKILLs it when it has not answered a signal within 60 ms; `node --import tsx` does not.)
let stopping: Promise<never> | undefined;
function stop(code: number, message: string): Promise<never> {
  stopping ??= (async () => {
    console.error(message);
    await cleanUp();
    process.exit(code);
  })();
  return stopping;
}
process.on("SIGINT", () => void stop(130, "bench: interrupted, cleaning up"));
process.on("SIGTERM", () => void stop(143, "bench: terminated, cleaning up"));
const limitMs = against ? TIME_LIMIT_MS.ab : TIME_LIMIT_MS.plain;
setTimeout(() => void stop(2, `bench: over the ${limitMs / 60_000}-minute limit, stopping`), limitMs).unref();

const startedAt = performance.now();
const loadAtStart = Math.round((loadavg()[0] ?? 0) * 100) / 100;
const work = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-"));
let failed = false;
try {
  const other = against ? await otherBuild(against, work, log, defer) : undefined;
  log("starting PostgreSQL, the simulator and the service");
  const database = await databaseServer();
  defer(() => database.stop());
  const sim = await startSimulator(await benchBanks());
  defer(() => sim.close());
  const simClient = clientPool(sim.url, 64);
  defer(() => simClient.close());
  const profileDir = profile ? path.join(work, "profile") : undefined;
  const open = (dir: string, name: string) =>
    openBuild({
      dir,
      name,
      database,
      sim,
      simClient,
      work,
      defer,
      ...(profileDir && dir === ROOT ? { cpuProfileDir: profileDir } : {}),
    });
  const here: Build = { name: "this", ctx: await open(ROOT, "this") };
  const builds = [here];
  if (other) builds.push({ name: other.name, ctx: await open(other.dir, other.name) });
  const postgres = `PostgreSQL ${await serverVersion(here.ctx)} (${database.server})`;

  // Per build: its processes, how clients reach them, its start to /readyz 200 and its warm-up.
  const services: Record<string, unknown> = {};
  const details: Record<string, unknown> = { services };
  for (const { name, ctx } of builds) {
    log(`warming up ${name === "this" ? "this build" : name}`);
    const warm = await warmUp(ctx);
    services[name] = {
      processes: ctx.service.processes().length,
      connections: ctx.service.connections,
      readyMs: ctx.service.readyMs,
      warmUp: { ...warm, serviceRssMb: ctx.service.memory()?.currentMb ?? null },
    };
  }

  const figures: Figure[] = [];
  const record = (number: number, result: ScenarioResult, extra: Record<string, unknown> = {}) => {
    figures.push(...result.figures);
    details[String(number)] = { ...extra, ...result.details };
  };
  const compared = other ? selected.filter((s): s is ComparedScenario => s.compare !== undefined) : [];
  const there = builds[1];
  if (other && there) {
    log(
      `A/B against ${against} (${other.commit}): ${PAIRS} pairs each of ${compared.map((s) => s.number).join(", ")}`,
    );
    const ab = await compareBuilds(compared, here, there, log);
    figures.push(...ab.ratios);
    for (const [number, result] of ab.firstRuns)
      record(number, result, { run: "this build's first of the A/B" });
    details.ab = { against, commit: other.commit, dir: other.dir, cached: other.cached, ...ab.details };
  }
  for (const scenario of selected.filter((s) => !other || !s.compare)) {
    log(`${scenario.number}. ${scenario.name}`);
    const began = performance.now();
    const result = await scenario.run(here.ctx);
    record(scenario.number, result, { seconds: Math.round((performance.now() - began) / 100) / 10 });
  }
  details.servicePeakRssMb = here.ctx.service.memory()?.peakMb ?? null;
  figures.sort((a, b) => a.scenario - b.scenario);

  const durationSeconds = Math.round((performance.now() - startedAt) / 1000);
  const info = machine(postgres, loadAtStart);
  console.log(`\n${table(figures)}\n`);
  console.log(
    `${info.cpu}, ${info.cores} cores, ${info.memoryGb} GB, Node ${info.node}, ${info.postgres}; ` +
      builds
        .map(
          ({ name, ctx }) =>
            `${name}: ${ctx.workers} serving in ${ctx.service.processes().length} process(es)` +
            (ctx.service.connections ? ` (${ctx.service.connections})` : ""),
        )
        .join("; ") +
      `; ${durationSeconds} s`,
  );
  console.log(`load average (1 min) at start ${info.loadAverage.start}, at end ${info.loadAverage.end}`);
  await writeResults(RESULTS_FILE, { machine: info, durationSeconds, figures, details });
  console.log(`written: ${path.relative(process.cwd(), RESULTS_FILE)}`);
  if (profileDir) console.log(`service CPU profile (after it stops): ${profileDir}`);
} catch (error) {
  failed = true;
  // After a signal, whatever was under way fails as its services and worktree go: nothing to tell.
  if (!stopping) console.error(error);
  console.error(`logs kept in ${work}`);
} finally {
  await cleanUp();
  if (!failed && !profile) await rm(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function log(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`[${seconds.padStart(5)} s] ${message}`);
}

async function serverVersion(ctx: BenchContext): Promise<string> {
  const rows: { v: string }[] = await ctx.orm.em
    .getConnection()
    .execute("select current_setting('server_version') as v");
  return rows[0]?.v ?? "unknown";
}
