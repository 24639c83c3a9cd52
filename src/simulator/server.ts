import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { BankCode } from "../banks/codes.js";
import { loadPdfKit } from "./pdf.js";
import type { SimRequest, SimResponse, SimulatedBank } from "./types.js";

/** How a bank behaves right now; every mode but "normal" imitates an outage or a hostile answer. */
export type SimMode =
  | { kind: "normal" }
  | { kind: "slow"; delayMs: number }
  /** Never answers; the request stays open until the client gives up. */
  | { kind: "hang" }
  /** Sends the status and headers at once, then the body one byte every `intervalMs`. */
  | { kind: "trickle"; intervalMs: number }
  /** One mode per request, in order; the last one repeats. */
  | { kind: "sequence"; steps: readonly SimMode[] }
  | { kind: "error"; status: number }
  | { kind: "garbage" }
  | { kind: "reset" }
  | { kind: "oversize"; bytes: number }
  | { kind: "redirect"; location: string };

/** A running simulator: one loopback HTTP server answering for every origin of the given banks. */
export interface Simulator {
  /** Base URL of the server, e.g. "http://127.0.0.1:4010". */
  url: string;
  /** BANK_ORIGIN_OVERRIDES value */
  overrides: string;
  setMode(bank: BankCode, mode: SimMode): void;
  /** Requests routed to the bank since start or the last resetCounts(), whatever the mode. */
  requestCount(bank: BankCode): number;
  /** Of those, the ones whose client closed the connection before the answer was complete. */
  abandonedCount(bank: BankCode): number;
  resetCounts(): void;
  close(): Promise<void>;
}

export interface SimulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default "127.0.0.1"; the simulator is meant for loopback only. */
  host?: string;
  /** Added before every answer, to make the fake banks feel like remote ones. Default 0. */
  latencyMs?: number;
}

const OVERSIZE_CHUNK = 64 * 1024;

/** The banks one simulator answers for: a list, or banks by code (ALL_SIMULATED_BANKS with one replaced). */
export type SimulatedBanks = readonly SimulatedBank[] | Readonly<Partial<Record<BankCode, SimulatedBank>>>;

/**
 * Starts the simulator. Clients reach it through origin overrides: a request meant for
 * https://host:port/path arrives as GET /host:port/path, so one server can stand in for every bank.
 */
export async function startSimulator(
  banks: SimulatedBanks,
  options: SimulatorOptions = {},
): Promise<Simulator> {
  await loadPdfKit();
  const byOrigin = new Map<string, SimulatedBank>();
  for (const bank of Object.values(banks)) {
    if (!bank) continue;
    for (const origin of bank.origins) byOrigin.set(origin.toLowerCase(), bank);
  }
  const modes = new Map<BankCode, SimMode>();
  const counts = new Map<BankCode, number>();
  const abandoned = new Map<BankCode, number>();
  const sequenceAt = new Map<BankCode, number>();
  const latencyMs = options.latencyMs ?? 0;

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      console.error("[simulator] handler failed:", error);
      if (!res.headersSent && !res.destroyed) {
        res
          .writeHead(500, { "content-type": "text/plain" })
          .end(`simulator handler failed: ${String(error)}`);
      } else {
        res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 3000;

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await drain(req);
    const target = splitTarget(req.url ?? "/");
    const bank = target ? byOrigin.get(target.origin) : undefined;
    if (!target || !bank) {
      res.writeHead(404, { "content-type": "text/plain" }).end("unknown origin");
      return;
    }
    counts.set(bank.code, (counts.get(bank.code) ?? 0) + 1);
    res.once("close", () => {
      if (!res.writableFinished) abandoned.set(bank.code, (abandoned.get(bank.code) ?? 0) + 1);
    });
    const request: SimRequest = {
      origin: target.origin,
      method: req.method ?? "GET",
      path: target.path,
      query: new URLSearchParams(target.query),
      headers: flattenHeaders(req),
    };
    if (latencyMs > 0) await wait(latencyMs, res);
    const mode = currentMode(bank.code);
    switch (mode.kind) {
      case "reset":
        req.socket.destroy();
        return;
      case "error":
        res
          .writeHead(mode.status, { "content-type": "text/html; charset=utf-8" })
          .end(`<html><head><title>Error</title></head><body><h1>${mode.status} Error</h1></body></html>`);
        return;
      case "redirect":
        res.writeHead(302, { location: mode.location, "content-type": "text/html" }).end("<a>Moved</a>");
        return;
      case "oversize":
        await streamOversize(res, mode.bytes);
        return;
      case "garbage": {
        const normal = await bank.handle(request);
        const contentType = headerValue(normal, "content-type") ?? "application/octet-stream";
        res.writeHead(200, { "content-type": contentType }).end(garbageBytes());
        return;
      }
      case "hang":
        await new Promise((resolve) => res.once("close", resolve));
        return;
      case "trickle": {
        const answer = await bank.handle(request);
        await trickle(res, answer, mode.intervalMs);
        return;
      }
      case "slow":
        await wait(mode.delayMs, res);
        break;
      case "normal":
      case "sequence":
        break;
    }
    const answer = await bank.handle(request);
    if (res.destroyed) return;
    res.writeHead(answer.status, answer.headers ?? {}).end(answer.body);
  }

  /** The bank's mode for this request; a sequence advances by one step per request. */
  function currentMode(code: BankCode): SimMode {
    const mode = modes.get(code) ?? { kind: "normal" };
    if (mode.kind !== "sequence") return mode;
    const at = sequenceAt.get(code) ?? 0;
    sequenceAt.set(code, at + 1);
    return mode.steps[Math.min(at, mode.steps.length - 1)] ?? { kind: "normal" };
  }

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const overrides = [...byOrigin.keys()].map((origin) => `${origin}=${url}/${origin}`).join(",");

  return {
    url,
    overrides,
    setMode(bank, mode) {
      modes.set(bank, mode);
      sequenceAt.delete(bank);
    },
    abandonedCount(bank) {
      return abandoned.get(bank) ?? 0;
    },
    requestCount(bank) {
      return counts.get(bank) ?? 0;
    },
    resetCounts() {
      counts.clear();
      abandoned.clear();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would otherwise hold close() open until they time out.
        server.closeAllConnections();
      });
    },
  };
}

// --- internal helpers ---

/** "/host:port/rest?query" → origin, path at the real bank (raw, as sent) and query string. */
function splitTarget(rawUrl: string): { origin: string; path: string; query: string } | null {
  const queryAt = rawUrl.indexOf("?");
  const pathPart = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? "" : rawUrl.slice(queryAt + 1);
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathPart);
  const origin = match?.[1];
  if (!match || !origin?.includes(":")) return null;
  return { origin: origin.toLowerCase(), path: match[2] ?? "/", query };
}

function flattenHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function headerValue(response: SimResponse, name: string): string | undefined {
  for (const [key, value] of Object.entries(response.headers ?? {})) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

// Printable noise around random bytes: no bank label, no not-found phrase, not JSON, not a PDF.
function garbageBytes(): Buffer {
  return Buffer.concat([Buffer.from("~~ garbage ~~ "), randomBytes(512), Buffer.from(" ~~")]);
}

function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    req.on("data", () => {});
    req.on("end", resolve);
    req.on("error", () => resolve());
    req.on("close", resolve);
  });
}

/** The answer's headers at once, then its body one byte per `intervalMs` until done or the client leaves. */
async function trickle(res: ServerResponse, answer: SimResponse, intervalMs: number): Promise<void> {
  const body = Buffer.from(answer.body);
  res.writeHead(answer.status, { ...answer.headers, "content-length": String(body.length) });
  for (let at = 0; at < body.length && !res.destroyed; at++) {
    res.write(body.subarray(at, at + 1));
    await wait(intervalMs, res);
  }
  if (!res.destroyed) res.end();
}

/** Waits, but gives up early when the client goes away so close() is never held up by a timer. */
function wait(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    }
    res.on("close", done);
  });
}

async function streamOversize(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { "content-type": "application/octet-stream" });
  const chunk = Buffer.alloc(OVERSIZE_CHUNK, 0x41);
  let left = bytes;
  while (left > 0 && !res.destroyed) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= part.length;
    if (!res.write(part)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  if (!res.destroyed) res.end();
}
