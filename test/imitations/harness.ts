import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { type ApiResponse, createTenant, startTestApi, type TestApi } from "../support/api.js";

/** A running bank imitation: its BANK_ORIGIN_OVERRIDES value, and a way to stop it. */
export interface RunningImitation {
  overrides: string;
  close(): Promise<void>;
}

export interface ImitationHarness<B extends RunningImitation> {
  readonly api: TestApi;
  readonly bank: B;
  /** POST /verify with the given key, or with a fresh tenant's (quota 100) when none is given. */
  verify(json: Record<string, unknown>, key?: string): Promise<{ key: string; response: ApiResponse }>;
}

/** The real API on a fresh database, its lookups sent to the imitation, for the suite around the call. */
export function useImitation<B extends RunningImitation>(start: () => Promise<B>): ImitationHarness<B> {
  let api: TestApi | undefined;
  let bank: B | undefined;
  beforeAll(async () => {
    bank = await start();
    api = await startTestApi({ env: { BANK_ORIGIN_OVERRIDES: bank.overrides } });
  });
  afterAll(async () => {
    await api?.close();
    await bank?.close();
  });
  const running = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the imitation is not running (used outside its suite?)");
    return value;
  };
  return {
    get api() {
      return running(api);
    },
    get bank() {
      return running(bank);
    },
    async verify(json, key) {
      const target = running(api);
      const tenantKey = key ?? (await createTenant(target.db, { quota: 100 })).key;
      return { key: tenantKey, response: await target.request("POST", "/verify", { key: tenantKey, json }) };
    },
  };
}

/** An imitation served on loopback, remembering the path and query of every request it got. */
export interface LoopbackImitation extends RunningImitation {
  hits: string[];
}

/**
 * Serves `handle` on 127.0.0.1 for the given origins ("host:port"): lookups arrive as this server's URL plus
 * the bank's path and query, without the bank's Host header, so one server can stand for several hosts.
 */
export async function serveImitation(
  origins: readonly string[],
  handle: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<LoopbackImitation> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    Promise.resolve(handle(request, response)).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    overrides: origins.map((origin) => `${origin}=${base}`).join(","),
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
