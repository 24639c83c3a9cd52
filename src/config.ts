import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { BANK_CODES, type BankCode } from "./banks/codes.js";
import { parseOriginOverrides } from "./banks/origin-overrides.js";
import type { DatabasePooler, DatabaseTimeouts } from "./db/connection-limits.js";

/** A sanity bound: each worker process holds a database pool of its own (DB_POOL_MAX connections). */
const MAX_WORKERS = 64;

const booleanFlag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1");

const configSchema = z.object({
  PORT: z.coerce
    .number({ error: "must be a port number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 65535")
    .max(65535, "must be between 0 and 65535")
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
    .optional(),
  DATABASE_POOLER: z.enum(["session", "transaction"]).default("session"),
  DATA_DIR: z.string().min(1, "must not be empty").default("./.data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BOOTSTRAP: booleanFlag.default(true),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  WEB_CONCURRENCY: z.coerce
    .number({ error: "must be a number of processes" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(MAX_WORKERS, `must be at most ${MAX_WORKERS}`)
    .optional(),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .max(60_000, "must be at most 60000")
    .default(3_000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .max(600_000, "must be at most 600000")
    .default(5_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .max(600_000, "must be at most 600000")
    .default(65_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .max(3_600_000, "must be at most 3600000")
    .default(90_000),
  SERVER_OCR: booleanFlag.default(false),
  OCR_POOL_SIZE: z.coerce
    .number({ error: "must be a number" })
    .int()
    .min(1, "must be at least 1")
    .max(8, "must be at most 8")
    .default(1),
  OCR_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int()
    .min(1000, "must be at least 1000")
    .max(120_000, "must be at most 120000")
    .default(20_000),
  VERIFY_DEADLINE_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(1000, "must be at least 1000")
    .max(120_000, "must be at most 120000")
    .default(25_000),
  BANK_ORIGIN_OVERRIDES: z.string().optional(),
  BANK_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  BANK_CBE_APP_ID: z.string().min(1).optional(),
  BANK_CBE_APP_VERSION: z.string().min(1).optional(),
  BANK_BOA_QR_KEY: z.string().min(1).optional(),
  ...bankVariables(),
  BANK_BREAKER_FAILURES: z.coerce
    .number({ error: "must be a number of failures" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(5),
  BANK_BREAKER_COOLDOWN_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .max(3_600_000, "must be at most 3600000")
    .default(30_000),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, "must be 16 to 256 visible ASCII characters (no spaces)")
    .optional(),
  HISTORY_RETENTION_MONTHS: z.coerce
    .number({ error: "must be a whole number of months" })
    .int("must be a whole number of months")
    .min(1, "must be at least 1")
    .max(1200, "must be at most 1200")
    .optional(),
  API_RATE_LIMIT: z.coerce
    .number({ error: "must be a number of requests per minute" })
    .int()
    .min(0, "must be 0 (off) or more")
    .default(300),
  BOT_RATE_LIMIT: z.coerce
    .number({ error: "must be a number of messages per minute" })
    .int()
    .min(0, "must be 0 (off) or more")
    .default(30),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(
      /^\d+:[A-Za-z0-9_-]{20,}$/,
      "must be a bot token from BotFather (digits, a colon, then the secret)",
    )
    .optional(),
  TELEGRAM_API_ROOT: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((value) => value.replace(/\/+$/, ""))
    .default("https://api.telegram.org"),
  BOT_MODE: z.enum(["polling", "webhook"], { error: "must be polling or webhook" }).default("polling"),
  BOT_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: "must be an https:// URL" }).optional(),
  // Telegram's own rule for secret_token.
  BOT_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/, "must be 1 to 256 characters: A-Z, a-z, 0-9, _ and -")
    .optional(),
  BOT_CONCURRENCY: z.coerce
    .number({ error: "must be a number" })
    .int()
    .min(1, "must be at least 1")
    .max(500, "must be at most 500")
    .default(50),
});

/** Per-bank variables: BANK_<CODE>_TIMEOUT_MS, BANK_<CODE>_RETRIES and BANK_PROXY_<CODE>. */
function bankVariables() {
  const timeout = z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .max(120_000, "must be at most 120000")
    .optional();
  const retries = z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(5, "must be at most 5")
    .optional();
  const proxy = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// proxy URL" }).optional();
  return Object.fromEntries(
    BANK_CODES.flatMap((code) => {
      const name = code.toUpperCase();
      return [
        [`BANK_${name}_TIMEOUT_MS`, timeout],
        [`BANK_${name}_RETRIES`, retries],
        [`BANK_PROXY_${name}`, proxy],
      ];
    }),
  ) as Record<string, typeof timeout | typeof retries | typeof proxy>;
}

export interface BankSettings {
  /** `host[:port]` → base URL: requests to that origin go there instead (tests, the simulator). */
  originOverrides: Map<string, string>;
  proxies: Partial<Record<BankCode, string>>;
  timeoutsMs: Partial<Record<BankCode, number>>;
  retries: Partial<Record<BankCode, number>>;
  maxResponseBytes: number;
  cbeAppId: string | undefined;
  cbeAppVersion: string | undefined;
  /** The passphrase of BOA's receipt QR (the slip page's public constant); without it BOA codes are ignored. */
  boaQrKey: string | undefined;
}

/** The Telegram bot; null when TELEGRAM_BOT_TOKEN is not set. */
export interface TelegramSettings {
  token: string;
  apiRoot: string;
  /** Updates handled at once (across chats; one at a time within a chat). */
  concurrency: number;
  /** Messages and button presses per minute per Telegram user; 0 is no limit. */
  ratePerMinute: number;
  mode: { kind: "polling" } | { kind: "webhook"; url: string; secret: string };
}

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof configSchema>["LOG_LEVEL"];
  bootstrap: boolean;
  dbPoolMax: number;
  /** Worker processes the cluster's primary runs, each serving the whole service (src/serve/); WEB_CONCURRENCY. */
  webConcurrency: number;
  /** Time limits on the database (waiting for a pooled connection, one statement), and its pooler's mode. */
  database: DatabaseTimeouts & { pooler: DatabasePooler };
  /** Time limits of the HTTP server (see api/server-settings.ts). */
  http: HttpTimeouts;
  /** Run OCR on the server for image receipts sent without receipt_text. */
  serverOcr: boolean;
  ocr: { poolSize: number; timeoutMs: number };
  /** The most one verification may take from its arrival; the bank's 503 at the deadline. */
  verifyDeadlineMs: number;
  banks: BankSettings;
  telegram: TelegramSettings | null;
  /** Months of history kept (whole months are dropped once older); null keeps everything. */
  historyRetentionMonths: number | null;
  /** Requests per minute per API key; 0 is no limit. */
  apiRateLimit: number;
  /** Per-bank circuit breakers in front of the live banks. */
  breaker: { failures: number; cooldownMs: number };
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
};

/** Bad configuration; the message names every offending variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Parses the process environment into a typed configuration. Pure: reads only `env`. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join("; ")}.`);
  }
  const values = parsed.data as z.infer<typeof configSchema> & Record<string, string | number | undefined>;
  let originOverrides: Map<string, string>;
  try {
    originOverrides = parseOriginOverrides(values.BANK_ORIGIN_OVERRIDES);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}.`);
  }
  const perBank = <T>(variable: (name: string) => string) =>
    Object.fromEntries(
      BANK_CODES.flatMap((code) => {
        const value = values[variable(code.toUpperCase())];
        return value === undefined ? [] : [[code, value as T]];
      }),
    ) as Partial<Record<BankCode, T>>;
  return {
    port: values.PORT,
    host: values.HOST,
    databaseUrl: values.DATABASE_URL,
    dataDir: path.resolve(values.DATA_DIR),
    logLevel: values.LOG_LEVEL,
    bootstrap: values.BOOTSTRAP,
    dbPoolMax: values.DB_POOL_MAX,
    webConcurrency: values.WEB_CONCURRENCY ?? defaultWorkers(),
    database: {
      acquireTimeoutMs: values.DB_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: values.DB_STATEMENT_TIMEOUT_MS,
      pooler: values.DATABASE_POOLER,
    },
    http: httpTimeouts(values),
    serverOcr: values.SERVER_OCR,
    ocr: { poolSize: values.OCR_POOL_SIZE, timeoutMs: values.OCR_TIMEOUT_MS },
    verifyDeadlineMs: values.VERIFY_DEADLINE_MS,
    banks: {
      originOverrides,
      proxies: perBank<string>((name) => `BANK_PROXY_${name}`),
      timeoutsMs: perBank<number>((name) => `BANK_${name}_TIMEOUT_MS`),
      retries: perBank<number>((name) => `BANK_${name}_RETRIES`),
      maxResponseBytes: values.BANK_MAX_RESPONSE_BYTES,
      cbeAppId: values.BANK_CBE_APP_ID,
      cbeAppVersion: values.BANK_CBE_APP_VERSION,
      boaQrKey: values.BANK_BOA_QR_KEY,
    },
    telegram: telegramSettings(values),
    historyRetentionMonths: values.HISTORY_RETENTION_MONTHS ?? null,
    apiRateLimit: values.API_RATE_LIMIT,
    breaker: { failures: values.BANK_BREAKER_FAILURES, cooldownMs: values.BANK_BREAKER_COOLDOWN_MS },
    metricsToken: values.METRICS_TOKEN,
  };
}

/**
 * One worker per core but one, at least one: the spare core is for PostgreSQL, the primary and the network.
 * On two cores a second worker added about 3 % throughput for about 150 MB (docs/performance.md).
 */
function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

export interface HttpTimeouts {
  /** An idle keep-alive connection is closed after this; above the 60 s idle timeout of load balancers. */
  keepAliveMs: number;
  /** All of a request's headers must have arrived within this; above keepAliveMs, as Node advises. */
  headersMs: number;
  /** The whole request (headers and body) must have arrived within this. */
  requestMs: number;
}

// headersTimeout must exceed keepAliveTimeout (a load balancer may reuse a socket just as it idles out),
// and requestTimeout must not be below headersTimeout (Node refuses it).
const HEADERS_AFTER_KEEP_ALIVE_MS = 1_000;

function httpTimeouts(values: z.infer<typeof configSchema>): HttpTimeouts {
  const keepAliveMs = values.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  const headersMs = keepAliveMs + HEADERS_AFTER_KEEP_ALIVE_MS;
  if (values.HTTP_REQUEST_TIMEOUT_MS < headersMs) {
    throw new ConfigError(
      `Invalid configuration: HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_KEEP_ALIVE_TIMEOUT_MS + ${HEADERS_AFTER_KEEP_ALIVE_MS} (${headersMs}).`,
    );
  }
  return { keepAliveMs, headersMs, requestMs: values.HTTP_REQUEST_TIMEOUT_MS };
}

function telegramSettings(values: z.infer<typeof configSchema>): TelegramSettings | null {
  if (!values.TELEGRAM_BOT_TOKEN) return null;
  const common = {
    token: values.TELEGRAM_BOT_TOKEN,
    apiRoot: values.TELEGRAM_API_ROOT,
    concurrency: values.BOT_CONCURRENCY,
    ratePerMinute: values.BOT_RATE_LIMIT,
  };
  if (values.BOT_MODE === "polling") return { ...common, mode: { kind: "polling" } };
  const missing = [
    values.BOT_WEBHOOK_URL ? null : "BOT_WEBHOOK_URL is required when BOT_MODE is webhook",
    values.BOT_WEBHOOK_SECRET ? null : "BOT_WEBHOOK_SECRET is required when BOT_MODE is webhook",
  ].filter((line) => line !== null);
  if (!values.BOT_WEBHOOK_URL || !values.BOT_WEBHOOK_SECRET) {
    throw new ConfigError(`Invalid configuration: ${missing.join("; ")}.`);
  }
  return {
    ...common,
    mode: { kind: "webhook", url: values.BOT_WEBHOOK_URL, secret: values.BOT_WEBHOOK_SECRET },
  };
}
