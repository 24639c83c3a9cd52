import { Agent, type Dispatcher, ProxyAgent } from "undici";
import { linkAbort } from "../cancellation.js";
import type { BankCode } from "./codes.js";
import { BankUnavailableError } from "./errors.js";

export { parseOriginOverrides } from "./origin-overrides.js";

import type { BankAdapter, BankRequest, BankResponse } from "./types.js";

export interface BankHttpOptions {
  /** Real origin "host:port" → base URL to send to instead (BANK_ORIGIN_OVERRIDES; simulator, relays). */
  originOverrides?: ReadonlyMap<string, string>;
  /** Per-bank HTTP(S) proxy URL, for banks that only answer from Ethiopian addresses. */
  proxies?: Partial<Record<BankCode, string>>;
  /** Largest response body read; more is refused as "too_large". Default 5 MiB. */
  maxBodyBytes?: number;
}

/** The one outbound HTTP client of the bank layer. */
export interface BankHttpClient {
  /**
   * Sends what an adapter built. Throws a plain Error for a request outside the adapter's origins
   * (a programming error), BankUnavailableError for transport failures; any non-3xx status is returned.
   * `timeoutMs` (default: the adapter's attempt timeout) bounds the whole exchange, trickled bodies included.
   */
  send(
    adapter: BankAdapter,
    request: BankRequest,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<BankResponse>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
const KEEP_ALIVE_MS = 10_000;

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Builds the client; dispatchers are pooled per (TLS mode, proxy, connect timeout) and kept alive. */
export function createBankHttpClient(options: BankHttpOptions = {}): BankHttpClient {
  const overrides = options.originOverrides ?? new Map<string, string>();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const pools = new Map<string, Dispatcher>();

  function dispatcherFor(insecure: boolean, proxy: string | undefined, connectTimeoutMs: number): Dispatcher {
    const key = `${insecure ? "insecure" : "verified"}|${connectTimeoutMs}|${proxy ?? ""}`;
    let dispatcher = pools.get(key);
    if (!dispatcher) {
      // Relaxed verification lives only in its own pool, used only for insecureTlsOrigins.
      const tls = { timeout: connectTimeoutMs, ...(insecure ? { rejectUnauthorized: false } : {}) };
      dispatcher = proxy
        ? new ProxyAgent({
            uri: proxy,
            keepAliveTimeout: KEEP_ALIVE_MS,
            requestTls: tls,
            proxyTls: { timeout: connectTimeoutMs },
          })
        : new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: tls });
      pools.set(key, dispatcher);
    }
    return dispatcher;
  }

  async function send(
    adapter: BankAdapter,
    bankRequest: BankRequest,
    signal?: AbortSignal,
    timeoutMs = adapter.network.timeoutMs,
  ): Promise<BankResponse> {
    const bank = adapter.code;
    const origin = checkedOrigin(adapter, bankRequest.url);
    const target = new URL(resolveTarget(bankRequest.url, overrides.get(origin)));
    const { connectTimeoutMs, insecureTlsOrigins } = adapter.network;
    const dispatcher = dispatcherFor(
      insecureTlsOrigins.includes(origin),
      options.proxies?.[bank],
      connectTimeoutMs,
    );

    const bounds = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      bounds.abort(new BankUnavailableError(bank, "timeout"));
    }, timeoutMs);
    const unlink = linkAbort(bounds, [signal]);
    try {
      const response = await dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: bankRequest.method,
        headers: bankRequest.headers,
        body: bankRequest.body,
        signal: bounds.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      if (response.statusCode >= 300 && response.statusCode < 400) {
        discard(response.body);
        throw new BankUnavailableError(bank, "redirect");
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBodyBytes) {
        discard(response.body);
        throw new BankUnavailableError(bank, "too_large");
      }
      const body = await readCapped(response.body, maxBodyBytes, bank);
      return { status: response.statusCode, headers: lowerCaseHeaders(response.headers), body };
    } catch (error) {
      if (error instanceof BankUnavailableError && error.bank === bank) throw error;
      if (timedOut) throw new BankUnavailableError(bank, "timeout", { cause: error });
      if (signal?.aborted) throw signal.reason;
      throw classify(bank, error);
    } finally {
      clearTimeout(timer);
      unlink();
    }
  }

  return {
    send,
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((dispatcher) => dispatcher.close()));
    },
  };
}

// --- internal helpers ---

/** The request's origin as "host:port", or a thrown Error when the adapter may not fetch it. */
function checkedOrigin(adapter: BankAdapter, rawUrl: string): string {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new Error(`${adapter.code}: request URL is not absolute: ${rawUrl}`);
  }
  if (url.protocol !== "https:")
    throw new Error(`${adapter.code}: refusing non-https request to ${url.origin}`);
  if (url.username || url.password) throw new Error(`${adapter.code}: refusing request URL with credentials`);
  const origin = `${url.hostname}:${url.port || "443"}`;
  if (!adapter.origins.includes(origin)) {
    throw new Error(`${adapter.code}: refusing request to ${origin}, not one of its origins`);
  }
  return origin;
}

function resolveTarget(rawUrl: string, base: string | undefined): string {
  if (!base) return rawUrl;
  const url = new URL(rawUrl);
  return `${base}${url.pathname}${url.search}`;
}

type Body = Dispatcher.ResponseData["body"];

/** Drops a body we will not read; undici reports the destroy as an error nobody should see. */
function discard(body: Body): void {
  body.on("error", () => {});
  body.destroy();
}

async function readCapped(body: Body, max: number, bank: BankCode): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      discard(body);
      throw new BankUnavailableError(bank, "too_large");
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function lowerCaseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}

function classify(bank: BankCode, error: unknown): Error {
  const code = errorCode(error);
  if (code === "UND_ERR_INVALID_ARG") return error as Error;
  const reason = code && TIMEOUT_CODES.has(code) ? "timeout" : "network";
  return new BankUnavailableError(bank, reason, { cause: error });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}
