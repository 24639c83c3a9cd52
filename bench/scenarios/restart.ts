import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { WATCHDOG_NAME } from "../../src/db/postmaster-watchdog.js";
import { freePort } from "../../src/free-port.js";
import { atMost, recorded, type ScenarioResult } from "../figures.js";
import { ROOT, residentKb, serviceProcesses, startCommand } from "../service.js";
import { median } from "../stats.js";

const START = startCommand(ROOT);
const ROUNDS = 5;
/** Plain starts (`npm start`, after a clean stop) on the existing data directory, timed to /readyz 200. */
const STARTS = 3;
/** How long a started service is left alone before its idle memory is read. */
const SETTLE_MS = 3_000;
/**
 * And read again later: V8's memory reducer gives back what start-up left (a grown young generation,
 * start-up's garbage) after ~8 s without allocation, so a service idle for long holds less (recorded).
 */
const LONG_IDLE_MS = 15_000;

/**
 * 11. Restart after kill -9: the service on the embedded PostgreSQL of its own data
 * directory is killed with SIGKILL and started again at once, as a supervisor would; measured from the
 * spawn of the new service process to its first /readyz 200. Plain kills (the watchdog then stops the
 * orphaned PostgreSQL) give `restart.after_kill_ready`; kills of the watchdog too (the new start must stop
 * the orphan itself) are recorded beside it.
 */
export async function restart(): Promise<ScenarioResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-restart-"));
  let service: Service | undefined;
  try {
    // The first start creates the cluster (initdb): not a restart, not measured.
    service = (await startAndTime(dataDir)).service;
    const plain: number[] = [];
    const orphan: number[] = [];
    const phases: { loadMs: number; databaseMs: number }[] = [];
    for (let round = 0; round < ROUNDS * 2; round++) {
      const watchdogToo = round % 2 === 1;
      await kill9(service, dataDir, watchdogToo);
      const next = await startAndTime(dataDir);
      service = next.service;
      (watchdogToo ? orphan : plain).push(Math.round(next.ms));
      phases.push(next.phases);
    }
    const plainMedian = Math.round(median(plain));
    const orphanMedian = Math.round(median(orphan));

    // As deployed: `npm start` (npm, then node on the compiled code) on the data directory just used.
    const starts: number[] = [];
    let idle: IdleMemory | null = null;
    for (let round = 0; round < STARTS; round++) {
      await service.stop();
      const next = await startAndTime(dataDir, "npm");
      service = next.service;
      starts.push(Math.round(next.ms));
    }
    await new Promise((resume) => setTimeout(resume, SETTLE_MS));
    idle = idleMemory(service.child.pid ?? 0);
    await new Promise((resume) => setTimeout(resume, LONG_IDLE_MS - SETTLE_MS));
    const longIdle = idleMemory(service.child.pid ?? 0);
    const startMedian = Math.round(median(starts));
    return {
      figures: [
        atMost(
          "startup.ready_ms",
          11,
          "npm start to /readyz 200, existing data (median)",
          startMedian,
          "ms",
          3000,
        ),
        atMost(
          "idle.rss",
          11,
          "idle RSS, whole service (PostgreSQL apart)",
          idle?.totalMb ?? Number.NaN,
          "MB",
          300,
        ),
        recorded(
          "idle.rss_settled",
          11,
          `… ${LONG_IDLE_MS / 1000} s after ready (V8's memory reducer has run)`,
          longIdle?.totalMb ?? Number.NaN,
          "MB",
        ),
        // Recorded without a goal: a restart after a crash is mostly the workers loading their code.
        recorded("restart.after_kill_ready", 11, "start to ready after kill -9 (median)", plainMedian, "ms"),
        recorded(
          "restart.after_orphan_ready",
          11,
          "start to ready, orphaned PostgreSQL left (median)",
          orphanMedian,
          "ms",
        ),
      ],
      details: {
        startsMs: starts,
        idle,
        longIdle,
        rounds: ROUNDS,
        afterKillMs: plain,
        afterOrphanMs: orphan,
        // Alternating rounds, plain first: code loading versus the database part of each start.
        phases,
      },
    };
  } finally {
    await service?.stop();
    // `npm start` is stopped by signalling its process group, PostgreSQL included, which may still be
    // removing its files when npm has exited.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

interface Service {
  child: ChildProcess;
  exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the service and times it until /readyz answers 200: the command of `npm start` with its
 * environment, or `npm start` itself, in a process group of its own so that stopping reaches every process.
 */
async function startAndTime(
  dataDir: string,
  how: "node" | "npm" = "node",
): Promise<{ service: Service; ms: number; phases: { loadMs: number; databaseMs: number } }> {
  const port = await freePort();
  const began = performance.now();
  const [command, args] = how === "npm" ? ["npm", ["start"]] : [process.execPath, START.args];
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: how === "npm",
    env: {
      ...process.env,
      ...(how === "node" ? START.env : {}),
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      BOOTSTRAP: "false",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const startedAt = Date.now();
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    if (stdout.length < 100_000) stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (gone || Date.now() > until) throw new Error(`the service did not become ready:\n${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resume) => setTimeout(resume, 10));
  }
  const ms = performance.now() - began;
  // Where the time went: loading the code until the first log line, then the database (an orphan stopped,
  // PostgreSQL started, migrations checked) until the service listens.
  const logged = (message: string) => {
    const time = new RegExp(`"time":"([^"]+)"[^\\n]*"msg":"${message}"`).exec(stdout)?.[1];
    return time ? Date.parse(time) : Number.NaN;
  };
  const databaseFrom = logged("starting the embedded PostgreSQL server");
  const phases = { loadMs: databaseFrom - startedAt, databaseMs: logged("listening") - databaseFrom };
  return {
    ms,
    phases,
    service: {
      child,
      exited,
      async stop() {
        if (gone) return;
        const signal = (name: NodeJS.Signals) =>
          how === "npm" && child.pid ? process.kill(-child.pid, name) : child.kill(name);
        signal("SIGTERM");
        const timer = setTimeout(() => signal("SIGKILL"), 15_000);
        await exited;
        // npm exits with its shell, which dies of the signal at once; the service drains a little longer.
        if (how === "npm" && child.pid) await groupGone(child.pid);
        clearTimeout(timer);
      },
    },
  };
}

/** Resolves once no process of process group `group` is left. */
async function groupGone(group: number): Promise<void> {
  const inGroup = (entry: string) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === group;
    } catch {
      return false;
    }
  };
  while (readdirSync("/proc").some((entry) => /^\d+$/.test(entry) && inGroup(entry))) {
    await new Promise((resume) => setTimeout(resume, 20));
  }
}

/** SIGKILL of the service (and first of its PostgreSQL watchdog), waiting until the process is gone. */
async function kill9(service: Service, dataDir: string, watchdogToo: boolean): Promise<void> {
  if (watchdogToo) {
    const watchdog = await watchdogPid(dataDir);
    if (watchdog) process.kill(watchdog, "SIGKILL");
  }
  service.child.kill("SIGKILL");
  await service.exited;
}

interface IdleMemory {
  /** Every process of the service (a primary and its workers), PostgreSQL apart. */
  totalMb: number;
  processesMb: number[];
}

/** RSS of the service's processes under `npm start` (npm's pid), PostgreSQL apart. */
function idleMemory(npm: number): IdleMemory | null {
  const processesMb = serviceProcesses(npm, START.entry).map((pid) =>
    Math.round((residentKb(pid)?.currentKb ?? Number.NaN) / 1024),
  );
  if (processesMb.length === 0) return null;
  return { totalMb: processesMb.reduce((sum, mb) => sum + mb, 0), processesMb };
}

async function watchdogPid(dataDir: string): Promise<number | null> {
  for (const entry of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const command = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (command.includes(WATCHDOG_NAME) && command.includes(path.join(dataDir, "postgres")))
      return Number(entry);
  }
  return null;
}
