import { Pool } from "undici";

/** One HTTP exchange as the load client saw it. */
export interface Exchange {
  status: number;
  ms: number;
  body: unknown;
}

/** A keep-alive connection pool to one loopback origin, sized for the concurrency that will use it. */
export function clientPool(origin: string, connections: number): Pool {
  return new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 30_000 });
}

/** Sends one request and reads the whole answer; `ms` covers sending to the last body byte. */
export async function exchange(
  pool: Pool,
  path: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Exchange> {
  const headers: Record<string, string> = { ...init.headers };
  let payload: string | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(init.json);
  }
  const started = performance.now();
  const response = await pool.request({ path, method: init.method ?? "GET", headers, body: payload });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const ms = performance.now() - started;
  const type = String(response.headers["content-type"] ?? "");
  // JSON parsed, PDFs and other binaries kept as bytes, anything else as text.
  const body: unknown =
    type.includes("json") && bytes.length > 0
      ? JSON.parse(bytes.toString("utf8"))
      : type.includes("pdf") || type.includes("octet-stream")
        ? bytes
        : bytes.toString("utf8");
  return { status: response.statusCode, ms, body };
}

export interface ClosedLoopOptions {
  concurrency: number;
  /** Stop after this many tasks were started... */
  count: number;
  /** ...or once this much time has passed, whichever comes first (the bench is bounded in time). */
  maxMs: number;
}

export interface ClosedLoopResult<T> {
  results: T[];
  elapsedMs: number;
}

/**
 * `concurrency` workers each run `task(i)` for the next index until `count` tasks were started or time is
 * up: a closed loop, so the load adapts to how fast the server answers instead of piling up.
 */
export async function closedLoop<T>(
  options: ClosedLoopOptions,
  task: (index: number) => Promise<T>,
): Promise<ClosedLoopResult<T>> {
  const results: T[] = [];
  const started = performance.now();
  const deadline = started + options.maxMs;
  let next = 0;
  const worker = async () => {
    while (next < options.count && performance.now() < deadline) {
      const index = next++;
      results.push(await task(index));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { results, elapsedMs: performance.now() - started };
}

/**
 * An open loop: task(i) starts at `rate` per second for `durationMs`, on schedule whatever the answers
 * (unlike a closed loop, a slow server does not slow the arrivals down, as with real clients).
 */
export async function openLoop<T>(
  rate: number,
  durationMs: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const started = performance.now();
  const running: Promise<T>[] = [];
  for (let i = 0; i * (1000 / rate) < durationMs; i++) {
    const wait = started + i * (1000 / rate) - performance.now();
    if (wait > 0) await new Promise((resume) => setTimeout(resume, wait));
    running.push(task(i));
  }
  return Promise.all(running);
}
