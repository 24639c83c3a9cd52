import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
/** The built entry point `npm start` runs (`npm run bench` builds it first). */
export const SERVICE_ENTRY = "dist/service/main.js";
/** How `npm start` runs the service (package.json): its environment, then Node's flags and the entry. */
export const SERVICE_START = startCommand();

function startCommand(): { env: Record<string, string>; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word && /^[A-Z_][A-Z0-9_]*=/.test(word); word = words[0]) {
    const [name = "", value = ""] = word.split("=");
    env[name] = value;
    words.shift();
  }
  const [command, ...args] = words;
  if (command !== "node" || args.at(-1) !== SERVICE_ENTRY) {
    throw new Error(`npm start is not "[NAME=value…] node [flags] ${SERVICE_ENTRY}": ${scripts.start}`);
  }
  return { env, args };
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
  /** How clients reach its workers, as its "listening" line says ("shared port", "relayed", "own socket"). */
  connections: string;
  pid: number;
  logFile: string;
  /**
   * The service's own processes: the one started (its workers are threads of it) and any Node children,
   * never PostgreSQL or other programs it runs. Linux /proc; null elsewhere.
   */
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
  env: Record<string, string>;
  logFile: string;
  /** Directory for V8 CPU profiles (node --cpu-prof, each worker its own), written when it stops. */
  cpuProfileDir?: string;
  /** Log lines "listening" to wait for: one per worker (default 1, the first). */
  listeners?: number;
}

/**
 * The service as it is deployed: `node dist/service/main.js` in its own process tree, configured by
 * environment. Its own processes give it their own event loops and their own RSS to measure. Logs go to a
 * file, not a pipe, so the bench process does no work per log line.
 */
export async function startServiceChild(options: ServiceChildOptions): Promise<ServiceChild> {
  const out = openSync(options.logFile, "w");
  const profile = options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...SERVICE_START.args], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVICE_START.env,
      PORT: "0",
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

  const until = Date.now() + 60_000;
  let port: string | undefined;
  let connections = "";
  const listeners = options.listeners ?? 1;
  for (;;) {
    const log = readFileSync(options.logFile, "utf8");
    const listening = [...log.matchAll(/"connections":"([^"]*)","port":(\d+),"msg":"listening"/g)];
    connections = listening[0]?.[1] ?? "";
    port = listening[0]?.[2];
    if (port && listening.length >= listeners) break;
    if (exited || Date.now() > until) throw new Error(`the service did not start:\n${log.slice(-3000)}`);
    await new Promise((resume) => setTimeout(resume, 100));
  }

  const tree = () => [pid, ...nodeChildren(pid)];
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    pid,
    logFile: options.logFile,
    memory() {
      const each = tree().map(procMemory);
      if (each.some((m) => m === null)) return null;
      const sum = (pick: (m: { peakMb: number; currentMb: number }) => number) =>
        each.reduce((total, m) => total + (m ? pick(m) : 0), 0);
      return { peakMb: sum((m) => m.peakMb), currentMb: sum((m) => m.currentMb), processes: each.length };
    },
    cpuMs() {
      const each = tree().map(procCpuMs);
      return each.some((ms) => ms === null) ? null : each.reduce<number>((total, ms) => total + (ms ?? 0), 0);
    },
    resetPeak() {
      try {
        for (const p of tree()) writeFileSync(`/proc/${p}/clear_refs`, "5");
        return true;
      } catch {
        return false;
      }
    },
    async stop() {
      if (exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** The Node processes whose parent is `pid`, oldest first. */
export function nodeChildren(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid && name === "node") children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children.sort((a, b) => a - b);
}

function procMemory(pid: number): { peakMb: number; currentMb: number } | null {
  const resident = residentKb(pid);
  if (!resident) return null;
  return { peakMb: Math.round(resident.peakKb / 1024), currentMb: Math.round(resident.currentKb / 1024) };
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
