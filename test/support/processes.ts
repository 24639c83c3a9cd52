import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The built file `npm start` and `npm run admin` run for an entry point of the sources: the service's
 * bundle for "src/main.ts", tsc's output otherwise ("src/cli/admin.ts" → "dist/src/cli/admin.js").
 * `npm test` builds first.
 */
export function compiled(script: string): string {
  if (script === "src/main.ts") return "dist/service/main.js";
  return path.join("dist", script.replace(/\.ts$/, ".js"));
}

/**
 * One serving process unless a test asks for worker threads: the tests that start the service as a process are
 * about what one instance does (test/service/workers.test.ts is about the workers).
 */
const SINGLE_PROCESS = { WEB_CONCURRENCY: "1" };

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
      env: { ...process.env, ...SINGLE_PROCESS, ...env },
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
  /** Resolves with the first match of `pattern` in the output, waiting for it up to `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the compiled service (or `entry`, a file that runs it) and waits for its "listening" log line
 * (PORT=0 picks a free port).
 */
export function startServiceProcess(
  env: Record<string, string>,
  entry = compiled("src/main.ts"),
): Promise<ServiceProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], {
      cwd: ROOT,
      env: { ...process.env, ...SINGLE_PROCESS, PORT: "0", HOST: "127.0.0.1", ...env },
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
          waitFor: async (pattern, timeoutMs = 5_000) => {
            const until = Date.now() + timeoutMs;
            for (;;) {
              const found = pattern.exec(output);
              if (found) return found;
              if (Date.now() > until) throw new Error(`no ${pattern} in output:\n${output}`);
              await new Promise((resume) => setTimeout(resume, 50));
            }
          },
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
