import { execFileSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import { type BankHttpClient, createBankHttpClient, parseOriginOverrides } from "../../src/banks/http.js";
import { lookupAtBank } from "../../src/banks/lookup.js";
import type {
  BankAdapter,
  BankNetwork,
  BankRequest,
  BankResponse,
  LookupTarget,
} from "../../src/banks/types.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimResponse, SimulatedBank } from "../../src/simulator/types.js";
import { drained, waitFor, within } from "../support/wait.js";
import { describeBankContract } from "./contract.js";

// A tiny JSON "bank" and its adapter, just enough to exercise the client, the retry loop and the contract suite.
const HOST = "receipts.fake.test";
const RECEIPT = {
  status: "completed",
  amount: 100,
  currency: "ETB",
  transactionDate: "2026-05-20T19:29:00+03:00",
  payerName: "Abebe Kebede",
  payerAccount: "1****5678",
  receiverName: "Sara Tesfaye",
  receiverAccount: "1****4321",
  description: null,
};

const fakeBank: SimulatedBank = {
  code: "telebirr",
  origins: [`${HOST}:443`, "slip.fake.test:8225"],
  examples: [
    {
      target: { transactionNumber: "abc1234567", account: null, token: null },
      shareUrl: `https://${HOST}/receipt/ABC1234567`,
      reference: "ABC1234567",
      receipt: RECEIPT,
    },
  ],
  notFound: { transactionNumber: "ZZZ9999999", account: null, token: null },
  handle(request): SimResponse {
    const ref = /^\/receipt\/([A-Z0-9]+)$/.exec(request.path)?.[1];
    if (request.origin === `${HOST}:443` && ref === "ABC1234567") {
      return {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ref, ...RECEIPT }),
      };
    }
    return { status: 404, headers: { "content-type": "application/json" }, body: '{"error":"not found"}' };
  },
};

function createFakeAdapter(network: Partial<BankNetwork> = {}, origins = fakeBank.origins): BankAdapter {
  return {
    code: "telebirr",
    origins,
    network: {
      timeoutMs: 15_000,
      connectTimeoutMs: 5000,
      retries: 2,
      backoffMs: 800,
      insecureTlsOrigins: [],
      ...network,
    },
    normalizeReference: (raw) => raw.trim().toUpperCase(),
    normalizeAccount: (raw) => raw.replace(/[\s-]/g, ""),
    validate: (target) =>
      /^[A-Z0-9]{10}$/.test(target.transactionNumber)
        ? null
        : { field: "transaction_number", message: "The transaction number format is invalid for Fake Bank." },
    parseShareUrl(url) {
      if (url.protocol !== "https:" || url.username || url.password || url.hostname !== HOST || url.port)
        return null;
      const ref = /^\/receipt\/([A-Z0-9]{10})$/.exec(url.pathname)?.[1];
      return ref ? { transactionNumber: ref, accountNumber: null, token: null } : null;
    },
    buildRequest: (target) => ({
      url: `https://${HOST}/receipt/${target.transactionNumber}`,
      method: "GET",
      headers: { accept: "application/json" },
    }),
    async parseResponse(response) {
      if (response.status === 404) return { kind: "not_found" };
      if (response.status >= 500) throw new BankUnavailableError("telebirr", "server_error");
      try {
        const { ref, ...receipt } = JSON.parse(response.body.toString("utf8")) as typeof RECEIPT & {
          ref: string;
        };
        if (typeof receipt.amount !== "number") throw new Error("no amount");
        return { kind: "found", receipt, reference: ref };
      } catch {
        throw new ReceiptFormatError(
          "telebirr",
          "unreadable answer",
          response.body.subarray(0, 80).toString(),
        );
      }
    },
  };
}

describeBankContract({
  adapter: (network) => createFakeAdapter(network),
  bank: fakeBank,
  shareUrls: [
    {
      url: `https://${HOST}/receipt/ABC1234567`,
      expected: { transactionNumber: "ABC1234567", accountNumber: null, token: null },
    },
  ],
  foreignUrls: ["https://evil.example/receipt/ABC1234567"],
  readByTextReader: false,
  invalidTargets: [{ transactionNumber: "abc", account: null, token: null }],
});

const GET = (path: string, headers: Record<string, string> = {}): BankRequest => ({
  url: `https://${HOST}${path}`,
  method: "GET",
  headers,
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

async function expectUnavailable(promise: Promise<unknown>, reason: BankUnavailableError["reason"]) {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(BankUnavailableError);
  expect(error).toMatchObject({ bank: "telebirr", reason });
}

function listen<T extends Server | NetServer>(server: T): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

function closeServer(server: Server | NetServer): Promise<void> {
  if ("closeAllConnections" in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A TCP server that accepts and never says anything, counting connections. */
function silentServer(): { server: NetServer; connections: () => number } {
  let count = 0;
  const sockets = new Set<import("node:net").Socket>();
  const server = createNetServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  const originalClose = server.close.bind(server);
  server.close = (callback?: (err?: Error) => void) => {
    for (const socket of sockets) socket.destroy();
    return originalClose(callback);
  };
  return { server, connections: () => count };
}

describe("createBankHttpClient", () => {
  let sim: Simulator;
  let client: BankHttpClient;
  const seen: { path: string; query: string; headers: Record<string, string | undefined> }[] = [];
  const echoBank: SimulatedBank = {
    ...fakeBank,
    handle(request) {
      seen.push({ path: request.path, query: request.query.toString(), headers: request.headers });
      if (request.path === "/status/500") return { status: 500, body: "boom" };
      return { status: 200, headers: { "X-Echo": "Yes", "Content-Type": "text/plain" }, body: "hello" };
    },
  };

  beforeAll(async () => {
    sim = await startSimulator([echoBank]);
    client = createBankHttpClient({ originOverrides: parseOriginOverrides(sim.overrides) });
  });
  afterEach(() => {
    sim.setMode("telebirr", { kind: "normal" });
    sim.resetCounts();
    seen.length = 0;
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it("sends an overridden origin to base + original path + query, with the adapter's headers", async () => {
    const response = await client.send(
      createFakeAdapter(),
      GET("/receipt/X%20Y?id=FT1&x=2", { "User-Agent": "Test/1" }),
    );
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("hello");
    expect(response.headers["x-echo"]).toBe("Yes");
    expect(Object.keys(response.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(seen).toEqual([expect.objectContaining({ path: "/receipt/X%20Y", query: "id=FT1&x=2" })]);
    expect(seen[0]?.headers["user-agent"]).toBe("Test/1");
  });

  it("returns 4xx and 5xx answers to the adapter instead of throwing", async () => {
    const response = await client.send(createFakeAdapter(), GET("/status/500"));
    expect(response.status).toBe(500);
    expect(response.body.toString()).toBe("boom");
  });

  it("keeps connections alive between requests to the same bank", async () => {
    const connections = new Set<unknown>();
    const server = createHttpServer((req, res) => {
      connections.add(req.socket);
      res.end("ok");
    });
    const port = await listen(server);
    const local = createBankHttpClient({
      originOverrides: new Map([[`${HOST}:443`, `http://127.0.0.1:${port}`]]),
    });
    try {
      for (let i = 0; i < 4; i++) {
        await local.send(createFakeAdapter(), GET("/"));
        // undici hands the socket back to the pool on the event-loop turn the body ends: let that turn run.
        await drained();
      }
      expect(connections.size).toBe(1);
    } finally {
      await local.close();
      await closeServer(server);
    }
  });

  it("refuses a request outside the adapter's origins without opening any connection", async () => {
    const trap = silentServer();
    const port = await listen(trap.server);
    const trapBase = `http://127.0.0.1:${port}`;
    const local = createBankHttpClient({
      originOverrides: new Map([
        ["trap.fake.test:443", trapBase],
        [`${HOST}:8443`, trapBase],
        [`${HOST}:443`, trapBase],
      ]),
    });
    const adapter = createFakeAdapter();
    try {
      for (const url of [
        "https://trap.fake.test/receipt/X",
        `https://${HOST}:8443/receipt/X`,
        `http://${HOST}/receipt/X`,
        `https://user@${HOST}/receipt/X`,
        "/receipt/X",
      ]) {
        const error = await failure(local.send(adapter, { url, method: "GET", headers: {} }));
        expect(error, url).toBeInstanceOf(Error);
        expect(error, url).not.toBeInstanceOf(BankUnavailableError);
      }
      expect(trap.connections()).toBe(0);
    } finally {
      await local.close();
      await closeServer(trap.server);
    }
  });

  it("applies the connect timeout to a server that never completes the TLS handshake", async () => {
    const silent = silentServer();
    const port = await listen(silent.server);
    const local = createBankHttpClient({
      originOverrides: new Map([[`${HOST}:443`, `https://127.0.0.1:${port}`]]),
    });
    try {
      // The total timeout is longer than any test: only the connect timeout can end this in time.
      await within(
        expectUnavailable(
          local.send(createFakeAdapter({ connectTimeoutMs: 300, timeoutMs: 600_000 }), GET("/receipt/X")),
          "timeout",
        ),
        "the connect timeout ending a handshake that never completes",
      );
    } finally {
      await local.close();
      await closeServer(silent.server);
    }
  });

  it("applies the total timeout to headers and body together", async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      // A byte every 100 ms never trips an idle timeout; only a deadline on the whole answer stops it.
      const timer = setInterval(() => res.write("x"), 100);
      timers.add(timer);
      res.on("close", () => clearInterval(timer));
    });
    const port = await listen(server);
    const local = createBankHttpClient({
      originOverrides: new Map([[`${HOST}:443`, `http://127.0.0.1:${port}`]]),
    });
    const started = Date.now();
    try {
      // The answer never ends: only a deadline on the whole of it can stop the request.
      await within(
        expectUnavailable(local.send(createFakeAdapter({ timeoutMs: 600 }), GET("/")), "timeout"),
        "the total timeout ending an answer that trickles forever",
      );
      // Exception, a lower bound: not before the limit (nothing marks the client's timer from outside).
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    } finally {
      for (const timer of timers) clearInterval(timer);
      await local.close();
      await closeServer(server);
    }
  });

  it("times out on a slow bank", async () => {
    sim.setMode("telebirr", { kind: "slow", delayMs: 2000 });
    await expectUnavailable(client.send(createFakeAdapter({ timeoutMs: 300 }), GET("/")), "timeout");
  });

  it("caps the body size, streamed or declared", async () => {
    const small = createBankHttpClient({
      originOverrides: parseOriginOverrides(sim.overrides),
      maxBodyBytes: 1024 * 1024,
    });
    try {
      sim.setMode("telebirr", { kind: "oversize", bytes: 3 * 1024 * 1024 });
      await expectUnavailable(small.send(createFakeAdapter(), GET("/")), "too_large");
      sim.setMode("telebirr", { kind: "oversize", bytes: 1024 * 1024 });
      expect((await small.send(createFakeAdapter(), GET("/"))).body.length).toBe(1024 * 1024);
    } finally {
      await small.close();
    }
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-length": String(10 * 1024 * 1024) });
      res.write("x");
    });
    const port = await listen(server);
    const local = createBankHttpClient({
      originOverrides: new Map([[`${HOST}:443`, `http://127.0.0.1:${port}`]]),
    });
    try {
      await expectUnavailable(local.send(createFakeAdapter(), GET("/")), "too_large");
    } finally {
      await local.close();
      await closeServer(server);
    }
  });

  it("never follows a redirect", async () => {
    const trap = silentServer();
    const port = await listen(trap.server);
    sim.setMode("telebirr", { kind: "redirect", location: `http://127.0.0.1:${port}/` });
    try {
      await expectUnavailable(client.send(createFakeAdapter(), GET("/")), "redirect");
      expect(trap.connections()).toBe(0);
    } finally {
      await closeServer(trap.server);
    }
  });

  it("reports a reset or refused connection as a network failure", async () => {
    sim.setMode("telebirr", { kind: "reset" });
    await expectUnavailable(client.send(createFakeAdapter(), GET("/")), "network");

    const closed = createHttpServer();
    const port = await listen(closed);
    await closeServer(closed);
    const local = createBankHttpClient({
      originOverrides: new Map([[`${HOST}:443`, `http://127.0.0.1:${port}`]]),
    });
    try {
      await expectUnavailable(local.send(createFakeAdapter(), GET("/")), "network");
    } finally {
      await local.close();
    }
  });

  it("passes the caller's abort through as is, not as a bank outage", async () => {
    sim.setMode("telebirr", { kind: "hang" });
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const before = sim.requestCount("telebirr");
    const sent = client.send(createFakeAdapter(), GET("/"), controller.signal);
    // Given up while the request waits at the bank.
    await waitFor(() => sim.requestCount("telebirr") > before, "the request to reach the bank");
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
  });

  it("leaves nothing on the caller's signal once a request is done, answered or failed", async () => {
    // The engine passes a signal that lives as long as the worker: what a request hangs on it must go.
    const lasting = new AbortController();
    await client.send(createFakeAdapter(), GET("/"), lasting.signal);
    await client.send(createFakeAdapter(), GET("/status/500"), lasting.signal);
    sim.setMode("telebirr", { kind: "reset" });
    await expectUnavailable(client.send(createFakeAdapter(), GET("/"), lasting.signal), "network");
    expect(getEventListeners(lasting.signal, "abort")).toHaveLength(0);
  });
});

describe("TLS verification", () => {
  const SECURE = "secure.fake.test:443";
  let dir: string;
  let server: import("node:https").Server;
  let client: BankHttpClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "birrcheck-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ].concat(["-days", "2", "-subj", "/CN=secure.fake.test"]),
      { stdio: "ignore" },
    );
    server = createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (_req, res) => res.end("secret receipt"),
    );
    const port = await listen(server);
    client = createBankHttpClient({ originOverrides: new Map([[SECURE, `https://127.0.0.1:${port}`]]) });
  });
  afterAll(async () => {
    await client?.close();
    if (server) await closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  const request: BankRequest = { url: "https://secure.fake.test/receipt/X", method: "GET", headers: {} };

  it("is relaxed for an origin the adapter lists as insecure", async () => {
    const adapter = createFakeAdapter({ insecureTlsOrigins: [SECURE] }, [SECURE]);
    const response = await client.send(adapter, request);
    expect(response.body.toString()).toBe("secret receipt");
  });

  it("stays strict for every other origin, on the same client", async () => {
    const insecure = createFakeAdapter({ insecureTlsOrigins: [SECURE] }, [SECURE]);
    const strict = createFakeAdapter({ insecureTlsOrigins: [] }, [SECURE]);
    await client.send(insecure, request);
    await expectUnavailable(client.send(strict, request), "network");
    const otherListed = createFakeAdapter({ insecureTlsOrigins: ["other.fake.test:8225"] }, [SECURE]);
    await expectUnavailable(client.send(otherListed, request), "network");
    expect(process.env.NODE_TLS_REJECT_UNAUTHORIZED).toBeUndefined();
  });
});

describe("parseOriginOverrides", () => {
  it("reads host[:port]=base entries, defaulting the port to 443", () => {
    const map = parseOriginOverrides(
      " transactioninfo.ethiotelecom.et=http://127.0.0.1:4010/transactioninfo.ethiotelecom.et:443/ ," +
        "awashpay.awashbank.com:8225=https://relay.example/awash",
    );
    expect([...map]).toEqual([
      ["transactioninfo.ethiotelecom.et:443", "http://127.0.0.1:4010/transactioninfo.ethiotelecom.et:443"],
      ["awashpay.awashbank.com:8225", "https://relay.example/awash"],
    ]);
  });

  it("is empty for an unset or blank value", () => {
    expect(parseOriginOverrides(undefined).size).toBe(0);
    expect(parseOriginOverrides("  ").size).toBe(0);
  });

  it.each([
    ["no-equals-sign", "no-equals-sign"],
    ["a.example=not a url", "a.example=not a url"],
    ["a.example=ftp://x", "a.example=ftp://x"],
    ["a.example:99999=http://x", "a.example:99999=http://x"],
    ["https://a.example=http://x", "https://a.example=http://x"],
    ["a.example=http://x?q=1", "a.example=http://x?q=1"],
    ["a.example=http://x,a.example:443=http://y", "a.example:443=http://y"],
  ])("rejects %s, naming the entry", (value, entry) => {
    expect(() => parseOriginOverrides(value)).toThrow(entry);
  });
});

describe("lookupAtBank", () => {
  const target: LookupTarget = { transactionNumber: "ABC1234567", account: null, token: null };
  const ok: BankResponse = {
    status: 200,
    headers: {},
    body: Buffer.from(JSON.stringify({ ref: "ABC1234567", ...RECEIPT })),
  };

  /** A client that plays a script: each step is a response or an error to throw. */
  function scripted(steps: (BankResponse | Error)[]) {
    let sent = 0;
    const client: BankHttpClient = {
      async send() {
        const step = steps[Math.min(sent, steps.length - 1)];
        sent++;
        if (!step) throw new Error("empty script");
        if (step instanceof Error) throw step;
        return step;
      },
      async close() {},
    };
    return { client, sent: () => sent };
  }

  function recordingSleep() {
    const delays: number[] = [];
    return { delays, sleep: async (ms: number) => void delays.push(ms) };
  }

  it("retries network failures, timeouts and server errors with exponential backoff", async () => {
    const adapter = createFakeAdapter({ retries: 3, backoffMs: 100 });
    const { client, sent } = scripted([
      new BankUnavailableError("telebirr", "network"),
      new BankUnavailableError("telebirr", "timeout"),
      { status: 503, headers: {}, body: Buffer.from("down") },
      ok,
    ]);
    const { delays, sleep } = recordingSleep();
    await expect(lookupAtBank(adapter, target, client, { sleep })).resolves.toEqual({
      kind: "found",
      receipt: RECEIPT,
      reference: "ABC1234567",
    });
    expect(sent()).toBe(4);
    expect(delays).toHaveLength(3);
    [100, 200, 400].forEach((base, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(base);
      expect(delays[i]).toBeLessThanOrEqual(base * 1.25);
    });
  });

  it("gives up after 1 + retries attempts with the last error", async () => {
    const adapter = createFakeAdapter({ retries: 2, backoffMs: 0 });
    const { client, sent } = scripted([new BankUnavailableError("telebirr", "network")]);
    await expectUnavailable(lookupAtBank(adapter, target, client, { sleep: async () => {} }), "network");
    expect(sent()).toBe(3);
  });

  it.each([
    ["too_large", new BankUnavailableError("telebirr", "too_large")],
    ["redirect", new BankUnavailableError("telebirr", "redirect")],
  ])("never retries %s", async (_name, error) => {
    const { client, sent } = scripted([error, ok]);
    await expect(lookupAtBank(createFakeAdapter(), target, client, { sleep: async () => {} })).rejects.toBe(
      error,
    );
    expect(sent()).toBe(1);
  });

  it("never retries an unreadable answer or a business outcome", async () => {
    const garbage = scripted([{ status: 200, headers: {}, body: Buffer.from("<html>") }, ok]);
    await expect(
      lookupAtBank(createFakeAdapter(), target, garbage.client, { sleep: async () => {} }),
    ).rejects.toBeInstanceOf(ReceiptFormatError);
    expect(garbage.sent()).toBe(1);

    const missing = scripted([{ status: 404, headers: {}, body: Buffer.from("{}") }, ok]);
    await expect(lookupAtBank(createFakeAdapter(), target, missing.client)).resolves.toEqual({
      kind: "not_found",
    });
    expect(missing.sent()).toBe(1);
  });

  it("retries answers the adapter calls transient, and interprets the last one", async () => {
    const flaky: BankResponse = { status: 400, headers: {}, body: Buffer.from("{}") };
    const interpreted: BankResponse[] = [];
    const base = createFakeAdapter({ retries: 2, backoffMs: 0 });
    const adapter: BankAdapter = {
      ...base,
      isTransient: (response) => response.status === 400,
      async parseResponse(response) {
        interpreted.push(response);
        return { kind: "not_found" };
      },
    };
    const { client, sent } = scripted([flaky]);
    await expect(lookupAtBank(adapter, target, client, { sleep: async () => {} })).resolves.toEqual({
      kind: "not_found",
    });
    expect(sent()).toBe(3);
    expect(interpreted).toEqual([flaky]);

    const recovering = scripted([flaky, ok]);
    interpreted.length = 0;
    await lookupAtBank(adapter, target, recovering.client, { sleep: async () => {} });
    expect(recovering.sent()).toBe(2);
    expect(interpreted).toEqual([ok]);
  });

  it("stops retrying once the caller aborts", async () => {
    const controller = new AbortController();
    const { client, sent } = scripted([new BankUnavailableError("telebirr", "network")]);
    const sleep = async () => controller.abort(new Error("stop"));
    await expectUnavailable(
      lookupAtBank(createFakeAdapter(), target, client, { sleep, signal: controller.signal }),
      "network",
    );
    expect(sent()).toBe(2);
  });
});
