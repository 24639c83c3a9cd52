import pg from "pg";
import type { Logger } from "../logger.js";
import type { KeyCache } from "./key-cache.js";

/** The channel the api_keys and branches triggers notify (migration 20261126050000). */
export const KEY_CHANGES_CHANNEL = "api_keys_changed";
export const KEY_CHANGES_APPLICATION = "birrcheck key changes";

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;
// A vanished server (host down, NAT dropped) is noticed by the kernel's probes, not by a silent LISTEN.
const KEEPALIVE_DELAY_MS = 10_000;

export interface KeyChangesListener {
  close(): Promise<void>;
}

/**
 * Listens for changes of API keys on a connection of its own and makes the cache forget on each. The cache
 * is live only while the LISTEN is in place: when the connection is lost (database restart, network) it is
 * emptied and stays unused, every request reading its key from the database, until listening again.
 */
export function listenForKeyChanges(
  databaseUrl: string,
  cache: KeyCache,
  logger: Logger,
): KeyChangesListener {
  let closed = false;
  let client: pg.Client | null = null;
  let retryMs = RETRY_FIRST_MS;
  let retry: NodeJS.Timeout | undefined;

  function lost(current: pg.Client, error?: unknown): void {
    if (client !== current) return;
    client = null;
    cache.setLive(false);
    current.end().catch(() => undefined);
    if (closed) return;
    logger.warn(
      { err: error, retryMs },
      "lost the database's notifications of API key changes; reading keys each time",
    );
    retry = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  async function connect(): Promise<void> {
    const current = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      application_name: KEY_CHANGES_APPLICATION,
    });
    client = current;
    current.on("error", (error) => lost(current, error));
    current.on("end", () => lost(current));
    current.on("notification", () => cache.forgetAll());
    try {
      await current.connect();
      await current.query(`listen ${KEY_CHANGES_CHANNEL}`);
    } catch (error) {
      lost(current, error);
      return;
    }
    if (client !== current || closed) return;
    retryMs = RETRY_FIRST_MS;
    cache.setLive(true);
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      cache.setLive(false);
      await current?.end().catch(() => undefined);
    },
  };
}
