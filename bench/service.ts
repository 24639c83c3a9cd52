import { type ChildProcess, spawn } from "node:child_process";
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { freePort } from "../src/free-port.js";

/** This build: the working tree `npm run bench` has just built. */
export const ROOT = path.resolve(import.meta.dirname, "..");

/** How a build's `npm start` runs the service: its environment, Node's flags and the entry, then the entry alone. */
export interface StartCommand {
  env: Record<string, string>;
  args: string[];
  entry: string;
}

/**
 * Reads `[NAME=value …] node [flags…] <entry>` from the package.json `start` script in `dir`: the bench runs
 * it with its own Node (process.execPath), so that two builds compared run on the same one.
 */
export function startCommand(dir: string): StartCommand {
  const { scripts } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    scripts?: { start?: string };
  };
  const start = scripts?.start ?? "";
  const words = start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const word = words.shift() ?? "";
    const at = word.indexOf("=");
    env[word.slice(0, at)] = word.slice(at + 1).replace(/^(["'])(.*)\1$/, "$2");
  }
  const [command, ...args] = words;
  const entry = args.at(-1);
  if (command !== "node" || !entry || entry.startsWith("-")) {
    throw new Error(`${dir}: npm start is not "[NAME=value…] node [flags…] <entry>": ${start}`);
  }
  return { env, args, entry };
}

export interface ProcessMemory {
  /** Sum over the processes of their peak resident set size since the last resetPeak() (VmHWM), MB. */
  peakMb: number;
  /** Sum of their resident set size now (VmRSS), MB. */
  currentMb: number;
  processes: number;
}

export interface ServiceChild {
  url: string;
  /** How clients reach its workers, as its "listening" log line says ("shared port", "relayed"), if it says. */
  connections: string;
  pid: number;
  logFile: string;
  /** From the spawn to the first GET /readyz 200. */
  readyMs: number;
  /** The service's processes now (serviceProcesses): the one started first, then its Node descendants. */
  processes(): number[];
  /**
   * How many processes serve HTTP: its cluster workers (node:cluster gives them NODE_UNIQUE_ID), or 1 when it
   * has none (one process, its workers threads of it).
   */
  servingProcesses(): number;
  /** The memory of processes(), summed (Linux /proc; null elsewhere). */
  memory(): ProcessMemory | null;
  /**
   * Starts a new peak: each process's VmHWM is reset (writing 5 to /proc/<pid>/clear_refs) so that memory()
   * reports the peak from now on. False where that is not possible.
   */
  resetPeak(): boolean;
  /** CPU time (user + system) the service's processes have used so far, in ms, null elsewhere. */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

export interface ServiceChildOptions {
  /** The build's directory: its package.json says how to start it, and it runs there. */
  dir: string;
  env: Record<string, string>;
  logFile: string;
  /** Directory for V8 CPU profiles (node --cpu-prof, each worker its own), written when it stops. */
  cpuProfileDir?: string;
}

/**
 * A build's service as it is deployed: its `npm start` command in its own process tree, configured by
 * environment, ready once GET /readyz answers 200 (with worker processes, once every one of them serves).
 * Logs go to a file, not a pipe, so the bench process does no work per log line.
 */
export async function startServiceChild(options: ServiceChildOptions): Promise<ServiceChild> {
  const start = startCommand(options.dir);
  const port = await freePort();
  const out = openSync(options.logFile, "w");
  const profile = options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const began = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...profile, ...start.args], {
    cwd: options.dir,
    env: {
      ...process.env,
      ...start.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      BOOTSTRAP: "false",
      ...options.env,
    },
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  const pid = child.pid;
  if (pid === undefined) throw new Error("the service process did not start");
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exit;
    clearTimeout(timer);
  };

  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  while (!(await readyz(url))) {
    if (exited || Date.now() > until) {
      await stop();
      throw new Error(`the service did not start:\n${readFileSync(options.logFile, "utf8").slice(-3000)}`);
    }
    await new Promise((resume) => setTimeout(resume, 20));
  }
  const readyMs = Math.round(performance.now() - began);
  const log = readFileSync(options.logFile, "utf8");
  const connections = /"connections":"([^"]*)"[^\n]*"msg":"listening"/.exec(log)?.[1] ?? "";

  const processes = () => serviceProcesses(pid, start.entry);
  return {
    url,
    connections,
    pid,
    logFile: options.logFile,
    readyMs,
    processes,
    servingProcesses() {
      const workers = processes().filter((p) => environ(p).some((v) => v.startsWith("NODE_UNIQUE_ID=")));
      return Math.max(1, workers.length);
    },
    memory() {
      const each = processes().map(residentKb);
      if (each.length === 0 || each.some((m) => m === null)) return null;
      const sumMb = (pick: (m: { peakKb: number; currentKb: number }) => number) =>
        Math.round(each.reduce((total, m) => total + (m ? pick(m) : 0), 0) / 1024);
      return { peakMb: sumMb((m) => m.peakKb), currentMb: sumMb((m) => m.currentKb), processes: each.length };
    },
    cpuMs() {
      const each = processes().map(procCpuMs);
      return each.some((ms) => ms === null) ? null : each.reduce<number>((total, ms) => total + (ms ?? 0), 0);
    },
    resetPeak() {
      try {
        for (const p of processes()) writeFileSync(`/proc/${p}/clear_refs`, "5");
        return true;
      } catch {
        return false;
      }
    },
    stop,
  };
}

async function readyz(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

const NODE = realpathSync(process.execPath);

/**
 * `root` and the processes under it that run the bench's Node on the build's `entry`: a primary and its
 * cluster workers, or one process whose workers are threads. PostgreSQL, its watchdog, npm and the shell
 * npm runs the script with are never counted. Oldest first; empty off Linux.
 */
export function serviceProcesses(root: number, entry: string): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree: number[] = [];
  for (let queue = [root]; queue.length > 0; ) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue = [...queue, ...(children.get(pid) ?? [])];
  }
  return tree.filter((pid) => runs(pid, entry)).sort((a, b) => a - b);
}

function runs(pid: number, entry: string): boolean {
  try {
    return (
      readlinkSync(`/proc/${pid}/exe`) === NODE &&
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(path.normalize(entry))
    );
  } catch {
    return false;
  }
}

function environ(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  } catch {
    return [];
  }
}

/** One process's resident set now (VmRSS) and its peak (VmHWM), in kB; null once it is gone or off Linux. */
export function residentKb(pid: number): { currentKb: number; peakKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
    const peakKb = kb("VmHWM");
    const currentKb = kb("VmRSS");
    if (!Number.isFinite(peakKb) || !Number.isFinite(currentKb)) return null;
    return { currentKb, peakKb };
  } catch {
    return null;
  }
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms on Linux), null once it is gone. */
export function procCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the whole machine so far, in ms (Linux /proc/stat), null elsewhere. */
export function machineCpuMs(): { busy: number; total: number } | null {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/).slice(1).map(Number) ?? [];
    const total = cpu.reduce((sum, value) => sum + value, 0);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    return { busy: (total - idle) * 10, total: total * 10 };
  } catch {
    return null;
  }
}
