import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createTenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";

// The HTTP server's time limits against a running service, scaled down through configuration: slow
// senders get a 408 near their limit, idle keep-alive connections live as long as configured, and normal
// requests are served as usual while hundreds of slow sockets are held.

const KEEP_ALIVE_MS = 1_500;
/** Derived: keep-alive + 1 s. */
const HEADERS_MS = 2_500;
const REQUEST_MS = 4_000;
const TOO_SLOW = { message: "The request took too long to arrive." };

let db: TestDatabase;
let service: RunningServiceProcess;
let key: string;
let port: number;
beforeAll(async () => {
  db = await createTestDatabase();
  ({ key } = await createTenant(db, { name: "timeouts" }));
  service = await startService({
    databaseUrl: db.url,
    env: {
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      // The whole suite uses one key.
      API_RATE_LIMIT: "0",
    },
  });
  port = Number(new URL(service.url).port);
}, 60_000);
afterAll(async () => {
  const code = await service?.stop();
  await db?.drop();
  expect(code).toBe(0);
});

interface RawAnswer {
  /** Everything the server sent. */
  text: string;
  /** ms from `since` until the server closed the connection. */
  closedAfterMs: number;
}

/** A raw socket: `start` writes what it likes; resolves with what came back once the server closes. */
function rawExchange(start: (socket: net.Socket) => void): { since: number; answer: Promise<RawAnswer> } {
  const since = performance.now();
  const socket = net.connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  socket.on("connect", () => start(socket));
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("close", () => resolve({ text, closedAfterMs: performance.now() - since }));
  });
  return { since, answer };
}

function statusAndBody(text: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const body = text.slice(text.indexOf("\r\n\r\n") + 4);
  return { status, body: body ? JSON.parse(body) : undefined };
}

describe("default limits", () => {
  it("keep idle connections past a load balancer's 60 s, headers past that, requests past headers", () => {
    const { http } = loadConfig({});
    expect(http.keepAliveMs).toBeGreaterThan(60_000);
    expect(http.headersMs).toBeGreaterThan(http.keepAliveMs);
    expect(http.requestMs).toBeGreaterThanOrEqual(http.headersMs);
    expect(() =>
      loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: "65000", HTTP_REQUEST_TIMEOUT_MS: "30000" }),
    ).toThrow(/HTTP_REQUEST_TIMEOUT_MS must be at least/);
  });
});

describe("slow senders", () => {
  it("headers that never finish: 408 JSON near the headers limit", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const { answer } = rawExchange((socket) => {
      socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
      // Still sending, a header every 200 ms: activity does not extend the limit.
      let n = 0;
      trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: a\r\n`), 200);
    });
    const { text, closedAfterMs } = await answer;
    clearInterval(trickle);
    expect(statusAndBody(text)).toEqual({ status: 408, body: TOO_SLOW });
    expect(text).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(closedAfterMs).toBeLessThan(HEADERS_MS + 1_500);
  });

  it("a body that trickles: 408 JSON near the request limit, nothing recorded", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const { answer } = rawExchange((socket) => {
      socket.write(
        "POST /api/v1/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
          `Authorization: Bearer ${key}\r\nContent-Length: 2000\r\n\r\n{"bank":"telebirr",`,
      );
      trickle = setInterval(() => socket.writable && socket.write(" "), 200);
    });
    const { text, closedAfterMs } = await answer;
    clearInterval(trickle);
    expect(statusAndBody(text)).toEqual({ status: 408, body: TOO_SLOW });
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(closedAfterMs).toBeLessThan(REQUEST_MS + 1_500);
    const history = await service.request("GET", "/verifications", { key });
    expect(history.status).toBe(200);
    expect(history.body.verifications).toEqual([]);
  });
});

describe("idle keep-alive connections", () => {
  it("stay open for the configured time, serve a request after an idle pause, then close", async () => {
    const request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n";
    let secondSentAt = 0;
    const { since, answer } = rawExchange((socket) => {
      socket.write(request);
      // Idle for most of the keep-alive time, then reuse the connection, as a load balancer does.
      setTimeout(() => {
        secondSentAt = performance.now();
        socket.write(request);
      }, KEEP_ALIVE_MS - 400);
    });
    const { text, closedAfterMs } = await answer;
    const answers = text.match(/HTTP\/1\.1 200 OK/g) ?? [];
    expect(answers).toHaveLength(2);
    expect(text).toMatch(/Keep-Alive: timeout=1\b/);
    // Closed a keep-alive period after the second answer, not earlier (Node adds a second of grace to it).
    const idleAfterSecond = closedAfterMs - (secondSentAt - since);
    expect(idleAfterSecond).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 100);
    expect(idleAfterSecond).toBeLessThan(KEEP_ALIVE_MS + 2_500);
  });
});

describe("normal requests beside 500 slow sockets", () => {
  it("are answered as usual while the slow ones wait for their 408", { timeout: 30_000 }, async () => {
    const slow = Array.from({ length: 500 }, () =>
      rawExchange((socket) => socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")),
    );
    const durations: number[] = [];
    const timed = async (path: string) => {
      const started = performance.now();
      const response = await service.request("GET", path, { key });
      durations.push(performance.now() - started);
      return response.status;
    };
    // Sequential and in small bursts, while the slow sockets are all held (less than the headers limit).
    const statuses: number[] = [];
    const until = performance.now() + HEADERS_MS - 800;
    while (performance.now() < until) {
      statuses.push(await timed("/verifications"));
      statuses.push(...(await Promise.all([timed("/healthz"), timed("/banks"), timed("/verifications")])));
    }
    expect(statuses.length).toBeGreaterThan(20);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(Math.max(...durations)).toBeLessThan(1_000);

    const answers = await Promise.all(slow.map((exchange) => exchange.answer));
    for (const { text, closedAfterMs } of answers) {
      expect(statusAndBody(text)).toEqual({ status: 408, body: TOO_SLOW });
      expect(closedAfterMs).toBeLessThan(HEADERS_MS + 2_000);
    }
    const closed = answers.map((answer) => answer.closedAfterMs);
    console.info(
      `${statuses.length} normal requests, slowest ${Math.round(Math.max(...durations))} ms; ` +
        `500 slow sockets answered 408 after ${Math.round(Math.min(...closed))}–${Math.round(Math.max(...closed))} ms`,
    );
  });
});
