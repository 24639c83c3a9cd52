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
