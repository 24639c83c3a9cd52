import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createTenant } from "../support/api.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { within } from "../support/wait.js";

// The HTTP server's time limits against a running service, scaled down through configuration: slow
// senders get a 408 at their limit, idle keep-alive connections live as long as configured, and normal
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
});
afterAll(async () => {
  const code = await service?.stop();
  await db?.drop();
  expect(code).toBe(0);
});

interface RawAnswer {
  /** Everything the server sent. */
  text: string;
  /** performance.now() when the server closed the connection. */
  closedAt: number;
}

interface RawExchange {
  /** performance.now() before connecting: earlier than anything the server starts a timer on. */
  since: number;
  /** Resolves once the socket is connected and `start` has run. */
  started: Promise<void>;
  /** What came back, once the server closes; a server that never closes fails a 30 s wait. */
  answer: Promise<RawAnswer>;
}

/** A raw socket: `start` writes what it likes; resolves with what came back once the server closes. */
function rawExchange(start: (socket: net.Socket) => void): RawExchange {
  const since = performance.now();
  const socket = net.connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  const started = new Promise<void>((resolve) => {
    socket.on("connect", () => {
      start(socket);
      resolve();
    });
  });
  const closed = new Promise<RawAnswer>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("close", () => resolve({ text, closedAt: performance.now() }));
  });
  return { since, started, answer: within(closed, "the server closing the connection") };
}

function statusAndBody(text: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const body = text.slice(text.indexOf("\r\n\r\n") + 4);
  return { status, body: body ? JSON.parse(body) : undefined };
}

// How soon after its limit the server answers is a timing figure (the bench's); what is asserted: the
// answer, that it is not early (a lower bound: the server's timer starts after `since`, and load can only
// make it later), and that it comes at all while the client is still active (a 30 s wait).

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
  it("headers that never finish: 408 JSON at the headers limit, however the sender keeps sending", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const { since, answer } = rawExchange((socket) => {
      socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
      // Still sending, a header every 200 ms: activity does not extend the limit (if it did, no answer).
      let n = 0;
      trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: a\r\n`), 200);
    });
    const { text, closedAt } = await answer.finally(() => clearInterval(trickle));
    expect(statusAndBody(text)).toEqual({ status: 408, body: TOO_SLOW });
    expect(text).toMatch(/\r\nContent-Type: application\/json\r\n/);
    // Exception, a lower bound: not before the limit (no event marks the server's timer).
    expect(closedAt - since).toBeGreaterThanOrEqual(HEADERS_MS - 100);
  });

  it("a body that trickles: 408 JSON at the request limit, nothing recorded", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const { since, answer } = rawExchange((socket) => {
      socket.write(
        "POST /api/v1/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
          `Authorization: Bearer ${key}\r\nContent-Length: 2000\r\n\r\n{"bank":"telebirr",`,
      );
      trickle = setInterval(() => socket.writable && socket.write(" "), 200);
    });
    const { text, closedAt } = await answer.finally(() => clearInterval(trickle));
    expect(statusAndBody(text)).toEqual({ status: 408, body: TOO_SLOW });
    // Exception, a lower bound: not before the limit (no event marks the server's timer).
    expect(closedAt - since).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    const history = await service.request("GET", "/verifications", { key });
    expect(history.status).toBe(200);
    expect(history.body.verifications).toEqual([]);
  });
});

describe("idle keep-alive connections", () => {
  it("serve another request on the same connection, stay open for the configured time, then close", async () => {
    const request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n";
    let lastSentAt = 0;
    const { answer } = rawExchange((socket) => {
      socket.write(request);
      // Reused as soon as the first answer is in, as a load balancer does; then left idle.
      socket.once("data", () => {
        lastSentAt = performance.now();
        socket.write(request);
      });
    });
    const { text, closedAt } = await answer;
    const answers = text.match(/HTTP\/1\.1 200 OK/g) ?? [];
    expect(answers).toHaveLength(2);
    expect(text).toMatch(/Keep-Alive: timeout=1\b/);
    // Exception, a lower bound: open a whole keep-alive period after the last request (sent before the
    // server's idle timer started; nothing marks that timer from outside), so a request in that time is served.
    expect(closedAt - lastSentAt).toBeGreaterThanOrEqual(KEEP_ALIVE_MS);
  });
});

describe("normal requests beside 500 slow sockets", () => {
  it("are answered as usual while the slow ones wait for their 408", async () => {
    const slow = Array.from({ length: 500 }, () =>
      rawExchange((socket) => socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")),
    );
    await Promise.all(slow.map((exchange) => exchange.started));
    let open = slow.length;
    for (const exchange of slow)
      void exchange.answer.then(
        () => (open -= 1),
        () => undefined,
      );
    const durations: number[] = [];
    const timed = async (path: string) => {
      const started = performance.now();
      const response = await service.request("GET", path, { key });
      durations.push(performance.now() - started);
      return response.status;
    };
    // Sequential and in small bursts, while the slow sockets are held.
    const statuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      statuses.push(await timed("/verifications"));
      statuses.push(...(await Promise.all([timed("/healthz"), timed("/banks"), timed("/verifications")])));
    }
    const stillOpen = open;
    expect(new Set(statuses)).toEqual(new Set([200]));

    const answers = await Promise.all(slow.map((exchange) => exchange.answer));
    for (const { text } of answers) expect(statusAndBody(text)).toEqual({ status: 408, body: TOO_SLOW });
    const closed = answers.map((answer, i) => answer.closedAt - (slow[i]?.since ?? 0));
    console.info(
      `${statuses.length} normal requests, slowest ${Math.round(Math.max(...durations))} ms, ` +
        `${stillOpen} of 500 slow sockets still held after them; ` +
        `500 slow sockets answered 408 after ${Math.round(Math.min(...closed))}–${Math.round(Math.max(...closed))} ms`,
    );
  });
});
