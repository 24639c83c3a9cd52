import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type Koa from "koa";
import { createApi } from "../../api/app.js";
import { answerMalformedRequestsWithJson } from "../../api/client-errors.js";
import type { ApiState } from "../../api/context.js";
import { createBranch, createBusiness } from "../../src/admin/businesses.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createKeyCache, type KeyCache } from "../../src/auth/key-cache.js";
import { listenForKeyChanges } from "../../src/auth/key-changes.js";
import type { Role } from "../../src/auth/roles.js";
import { type BankSettings, loadConfig } from "../../src/config.js";
import { createEngine } from "../../src/engine/index.js";
import { createLogger } from "../../src/logger.js";
import type { OcrEngine } from "../../src/receipts/ocr/index.js";
import { createQrReceiptReader } from "../../src/receipts/qr/read-qr.js";
import { createReceiptReader } from "../../src/receipts/reader.js";
import { sandboxExamples } from "../../src/simulator/sandbox-examples.js";
import { createSandboxGateway } from "../../src/simulator/sandbox-gateway.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text of another content type. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
  body: any;
}

export interface RequestOptions {
  key?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with the given headers. */
  raw?: string;
  headers?: Record<string, string>;
  /** Aborts the request (a client that gives up). */
  signal?: AbortSignal;
}

export interface TestApi {
  url: string;
  /** The Koa application, for tests that read its routes. */
  app: Koa<ApiState>;
  db: TestDatabase;
  /** Every log line the API wrote, as text. */
  logs: string[];
  /** The authentication cache, live while the database's notifications of key changes are heard. */
  keyCache: KeyCache;
  /**
   * Requests whose client went away before the answer was complete, as the server saw it (its response's
   * 'close' event, which the service hears too): the event to wait for after aborting a request.
   */
  clientsGone(): number;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /**
   * BANK_* settings; by default the docs/banks.md defaults with no origin overrides (no bank is reachable).
   */
  banks?: Partial<BankSettings>;
  /** BANK_* variables, read the way the service reads them. */
  env?: Record<string, string>;
  /** Server-side OCR for image receipts without receipt_text (SERVER_OCR=true). */
  ocr?: OcrEngine;
  /** API_RATE_LIMIT; off unless given, so suites can send many requests with one key. */
  rateLimitPerMinute?: number;
  /** The database to serve from (dropped by close()); a fresh migrated one by default. */
  database?: TestDatabase;
  /**
   * VERIFY_DEADLINE_MS. By default 120 s, not the engine's 25 s: the deadline counts reading an image in,
   * which a loaded machine can stretch past 25 s; the deadline has tests of its own (test/api/deadline).
   */
  deadlineMs?: number;
}

const TEST_DEADLINE_MS = 120_000;

/** The real Koa app and engine on a loopback port, on a fresh migrated database. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const db = options.database ?? (await createTestDatabase());
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger("info", sink);
  const banks = { ...loadConfig(options.env ?? {}).banks, ...options.banks };
  const engine = createEngine(banks, db.orm, logger, {
    sandbox: createSandboxGateway(),
    deadlineMs: options.deadlineMs ?? TEST_DEADLINE_MS,
  });
  const reader = createReceiptReader({
    ocr: options.ocr ?? null,
    qr: createQrReceiptReader({ boaPassphrase: banks.boaQrKey }),
  });
  // As the service does: recently used keys answered from memory while key changes are heard.
  const keyCache = createKeyCache();
  const keyChanges = listenForKeyChanges(db.url, keyCache, logger);
  const app = createApi({
    orm: db.orm,
    keyCache,
    engine,
    reader,
    logger,
    sandboxExamples: sandboxExamples(),
    ...(options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  answerMalformedRequestsWithJson(server);
  let gone = 0;
  server.on("request", (_request, response: ServerResponse) => {
    response.once("close", () => {
      if (!response.writableFinished) gone += 1;
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    app,
    db,
    logs,
    keyCache,
    clientsGone: () => gone,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.raw;
      if (options.json !== undefined) {
        headers["content-type"] ??= "application/json";
        body = JSON.stringify(options.json);
      }
      const response = await fetch(`${url}/api/v1${path}`, {
        method,
        headers,
        body,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const text = await response.text();
      // JSON parsed; anything else (the CSV export) kept as text, its byte-order mark dropped by fetch.
      const isJson = /json/.test(response.headers.get("content-type") ?? "");
      return {
        status: response.status,
        headers: response.headers,
        body: text ? (isJson ? JSON.parse(text) : text) : undefined,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await engine.close();
      await keyChanges.close();
      await db.drop();
    },
  };
}

export interface Tenant {
  businessId: number;
  branchId: number;
  key: string;
}

/** A business with one branch and a key of the given role. */
export async function createTenant(
  db: TestDatabase,
  options: { role?: Role; quota?: number; name?: string } = {},
): Promise<Tenant> {
  const em = db.orm.em.fork();
  const business = await createBusiness(em, options.name ?? "Test business", options.quota ?? 100);
  const branch = await createBranch(em, business.id, "Main");
  const { key } = await createApiKey(em, branch.id, options.role ?? "admin", { label: "test key" });
  return { businessId: business.id, branchId: branch.id, key };
}

/** Another key on an existing branch. */
export async function createKey(db: TestDatabase, branchId: number, role: Role): Promise<string> {
  const { key } = await createApiKey(db.orm.em.fork(), branchId, role, { label: `${role} key` });
  return key;
}
