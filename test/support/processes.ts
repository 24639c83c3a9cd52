import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { WAIT_MS } from "./wait.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The file `npm start` runs: its script must stay a plain `node <file>`, which is what the tests start. */
export const START_ENTRY = startEntry();

function startEntry(): string {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const match = /^node (\S+)$/.exec(scripts.start.trim());
  if (!match?.[1]) throw new Error(`npm start is not "node <file>": ${scripts.start}`);
  return match[1];
}

/** tsc's output for an entry point of the sources ("src/cli/admin.ts" → "dist/src/cli/admin.js"). */
export function compiled(script: string): string {
  return path.join("dist", script.replace(/\.ts$/, ".js"));
}

/**
 * One worker unless a test asks for more: the tests that start the service as a process are mostly about
 * what one instance does (test/service/workers.test.ts is about the workers).
 */
const ONE_WORKER = { WEB_CONCURRENCY: "1" };

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an entry point of the project, as compiled to dist/, to completion. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compiled(script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...ONE_WORKER, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output, waiting for it up to `timeoutMs` (WAIT_MS). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the service as `npm start` does (or `entry`, a file that runs it) and waits for its "listening"
 * log line (PORT=0 picks a free port).
 */
export function startServiceProcess(
  env: Record<string, string>,
  entry = START_ENTRY,
): Promise<ServiceProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], {
      cwd: ROOT,
      env: { ...process.env, ...ONE_WORKER, PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /"port":(\d+),"msg":"listening"/.exec(output);
      if (match) {
        resolve({
          url: `http://127.0.0.1:${match[1]}`,
          child,
          output: () => output,
          waitFor: (pattern, timeoutMs = WAIT_MS) =>
            new Promise((found, notFound) => {
              // Checked as each chunk arrives (after onData has added it), not on a timer.
              const look = () => {
                const match = pattern.exec(output);
                if (!match) return;
                stopLooking();
                found(match);
              };
              const timer = setTimeout(() => {
                stopLooking();
                notFound(new Error(`no ${pattern} in output:\n${output}`));
              }, timeoutMs);
              const stopLooking = () => {
                clearTimeout(timer);
                child.stdout.off("data", look);
                child.stderr.off("data", look);
              };
              child.stdout.on("data", look);
              child.stderr.on("data", look);
              look();
            }),
          stop: () => {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    exited.then((code) => reject(new Error(`service exited (${code}) before listening:\n${output}`)));
  });
}
