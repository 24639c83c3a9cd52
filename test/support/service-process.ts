import { type ServiceProcess, startServiceProcess } from "./processes.js";

export interface ServiceResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
  body: any;
  headers: Record<string, string>;
}

export interface RunningServiceProcess {
  /** Base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  pid: number;
  output(): string;
  /** The first match of `pattern` in the output, waiting up to `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** The JSON log lines written so far, parsed. */
  logLines(): Record<string, unknown>[];
  /** A request to `/api/v1<path>` (or to `path` as is when it starts with `/healthz`, `/readyz` or `/metrics`). */
  request(
    method: string,
    path: string,
    options?: { key?: string; json?: unknown; headers?: Record<string, string> },
  ): Promise<ServiceResponse>;
  /** SIGTERM, then the exit code; SIGKILL (code null) when it has not exited within `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
}

export interface ServiceProcessOptions {
  /** DATABASE_URL; empty or absent runs the embedded database in DATA_DIR (set it in `env`). */
  databaseUrl?: string;
  /** BANK_ORIGIN_OVERRIDES, e.g. a simulator's `overrides`. */
  bankOverrides?: string;
  /** Any other variable (BANK_<CODE>_TIMEOUT_MS, SERVER_OCR, DATA_DIR...). */
  env?: Record<string, string>;
}

/**
 * The compiled service (`dist/service/main.js`) as a child process on a free loopback port, without the first-run bootstrap,
 * resolved once it logs "listening".
 */
export async function startService(options: ServiceProcessOptions = {}): Promise<RunningServiceProcess> {
  const service = await startServiceProcess({
    DATABASE_URL: options.databaseUrl ?? "",
    BOOTSTRAP: "false",
    BANK_ORIGIN_OVERRIDES: options.bankOverrides ?? "",
    ...options.env,
    // The "listening" line the start waits for is an info line.
    LOG_LEVEL: "info",
  });
  // A test run that dies must not leave a service (and its embedded database) behind.
  const orphan = () => service.child.kill("SIGKILL");
  process.once("exit", orphan);
  service.child.once("exit", () => process.removeListener("exit", orphan));
  return wrap(service);
}

function wrap(service: ServiceProcess): RunningServiceProcess {
  const exited = new Promise<number | null>((resolve) => {
    if (service.child.exitCode !== null) resolve(service.child.exitCode);
    else service.child.once("exit", (code) => resolve(code));
  });
  return {
    url: service.url,
    pid: service.child.pid ?? 0,
    output: service.output,
    waitFor: service.waitFor,
    logLines: () =>
      service
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (options.json !== undefined) headers["content-type"] = "application/json";
      const target = /^\/(healthz|readyz|metrics)/.test(path) ? path : `/api/v1${path}`;
      const response = await fetch(`${service.url}${target}`, {
        method,
        headers,
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
      });
      const text = await response.text();
      const json = (response.headers.get("content-type") ?? "").includes("json");
      return {
        status: response.status,
        body: text && json ? JSON.parse(text) : text || undefined,
        headers: Object.fromEntries(response.headers),
      };
    },
    async stop(timeoutMs = 20_000) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill("SIGTERM");
      }
      let timer: NodeJS.Timeout | undefined;
      const killed = new Promise<null>((resolve) => {
        timer = setTimeout(() => {
          service.child.kill("SIGKILL");
          resolve(null);
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, killed]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
