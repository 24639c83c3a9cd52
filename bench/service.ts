import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface ServiceChild {
  url: string;
  pid: number;
  logFile: string;
  /** Peak and current resident set size of the service process, in MB (Linux /proc), null elsewhere. */
  memory(): { peakMb: number; currentMb: number } | null;
  /**
   * Starts a new peak: the peak RSS (VmHWM) is reset so that memory() reports the peak from now on
   * (Linux, writing 5 to /proc/<pid>/clear_refs). False where that is not possible.
   */
  resetPeak(): boolean;
  /** CPU time (user + system) the service process has used so far, in ms (Linux /proc), null elsewhere. */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

export interface ServiceChildOptions {
  env: Record<string, string>;
  logFile: string;
  /** Directory for a V8 CPU profile of the whole run (node --cpu-prof), written when it stops. */
  cpuProfileDir?: string;
}

/**
 * The service as it is deployed: `src/main.ts` in its own process, configured by environment. Its own
 * process gives it its own event loop (the load client does not steal it) and its own RSS to measure.
 * Logs go to a file, not a pipe, so the bench process does no work per log line.
 */
export async function startServiceChild(options: ServiceChildOptions): Promise<ServiceChild> {
  const out = openSync(options.logFile, "w");
  const profile = options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, "--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", BOOTSTRAP: "false", ...options.env },
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
  while (!port) {
    const log = readFileSync(options.logFile, "utf8");
    port = /"port":(\d+),"msg":"listening"/.exec(log)?.[1];
    if (port) break;
    if (exited || Date.now() > until) throw new Error(`the service did not start:\n${log.slice(-3000)}`);
    await new Promise((resume) => setTimeout(resume, 100));
  }

  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    logFile: options.logFile,
    memory: () => procMemory(pid),
    cpuMs: () => procCpuMs(pid),
    resetPeak() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, "5");
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

function procMemory(pid: number): { peakMb: number; currentMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
    const peak = kb("VmHWM");
    const current = kb("VmRSS");
    if (!Number.isFinite(peak) || !Number.isFinite(current)) return null;
    return { peakMb: Math.round(peak / 1024), currentMb: Math.round(current / 1024) };
  } catch {
    return null;
  }
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms on Linux). */
function procCpuMs(pid: number): number | null {
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
