import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * What is known about a process id. A zombie counts as gone: where PID 1 does not reap orphans (some
 * container and VM init processes), a dead postmaster stays a zombie and `kill(pid, 0)` still succeeds.
 */
export interface ProcessInfo {
  state: "alive" | "zombie" | "gone";
  /** Parent pid, when the platform tells (Linux /proc). */
  ppid: number | null;
  /** Start time in clock ticks since boot (Linux /proc): tells a reused pid from the original process. */
  started: string | null;
}

export async function processInfo(pid: number): Promise<ProcessInfo> {
  if (!Number.isInteger(pid) || pid <= 0) return { state: "gone", ppid: null, started: null };
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) S ppid …": comm may hold spaces and parentheses, so fields are counted after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      state: fields[0] === "Z" || fields[0] === "X" ? "zombie" : "alive",
      ppid: Number(fields[1]),
      // Field 22 of the whole line; the first field after ")" is field 3.
      started: fields[19] ?? null,
    };
  } catch {
    // No /proc (macOS) or no such process: the signal-0 probe answers the question that matters.
    return { state: signalReaches(pid) ? "alive" : "gone", ppid: null, started: null };
  }
}

export async function isAlive(pid: number): Promise<boolean> {
  return (await processInfo(pid)).state === "alive";
}

/** The command line of a live process, or null when it cannot be read. */
export async function commandLine(pid: number): Promise<string | null> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, "utf8")).replaceAll("\0", " ").trim();
  } catch {
    try {
      const { stdout } = await run("ps", ["-o", "command=", "-p", String(pid)]);
      return stdout.trim() || null;
    } catch {
      return null;
    }
  }
}

/** Sends a signal; false when the process is already gone. */
export function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process is gone (or a zombie), polling; true when it went within `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if ((await processInfo(pid)).state !== "alive") return true;
    if (Date.now() > until) return false;
    await new Promise((resume) => setTimeout(resume, 25));
  }
}

function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user when we are not root).
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
