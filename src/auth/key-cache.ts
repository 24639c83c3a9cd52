import type { Caller } from "./api-keys.js";

/** A key's caller as last read from the database, and when the key was last marked used. */
export interface RememberedKey {
  caller: Caller;
  lastUsedAt: number | null;
  readAt: number;
}

export interface KeyCacheOptions {
  /** A remembered key is read again after this long, even when no change was heard. */
  ttlMs?: number;
  maxKeys?: number;
}

// A backstop only: changes are heard at once (src/auth/key-changes.ts), so a key read a minute ago is
// read again for the price of one query a minute.
const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX_KEYS = 10_000;

/**
 * The callers of recently used API keys by key hash, so that a request costs no authentication query.
 * Trusted only while changes to keys are heard (`live`): PostgreSQL notifies every change of a
 * key or its branch, and each notification forgets everything. A read that began before a change was heard
 * is not remembered (the generation moved on), so a revoked key never outlives its notification.
 */
export function createKeyCache(options: KeyCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const keys = new Map<string, RememberedKey>();
  let generation = 0;
  let live = false;

  function forgetAll(): void {
    generation++;
    keys.clear();
  }

  return {
    recall(hash: string, now: number): RememberedKey | undefined {
      const key = keys.get(hash);
      if (key && now - key.readAt <= ttlMs) return key;
      if (key) keys.delete(hash);
      return undefined;
    },
    /** Taken before reading a key from the database, and handed back to remember() with what was read. */
    get generation(): number {
      return generation;
    },
    remember(hash: string, key: RememberedKey, readInGeneration: number): void {
      if (!live || readInGeneration !== generation) return;
      if (keys.size >= maxKeys) {
        const oldest = keys.keys().next();
        if (!oldest.done) keys.delete(oldest.value);
      }
      keys.set(hash, key);
    },
    /** A key changed, or changes may have been missed: nothing remembered is trusted any more. */
    forgetAll,
    /** Whether changes are heard right now; whichever way it turns, what was remembered is forgotten. */
    setLive(value: boolean): void {
      live = value;
      forgetAll();
    },
    get live(): boolean {
      return live;
    },
    get size(): number {
      return keys.size;
    },
  };
}

export type KeyCache = ReturnType<typeof createKeyCache>;
