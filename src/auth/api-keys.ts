import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { type ApiKey, ApiKeySchema, BranchSchema } from "../db/entities/index.js";
import { AuthenticationError, NotFoundError } from "../errors.js";
import type { KeyCache, RememberedKey } from "./key-cache.js";
import type { Role } from "./roles.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** `chk_` (or `chk_test_` for sandbox keys) and at least 32 random bytes in base62 or base64url. */
const KEY_PATTERN = /^chk_(?:test_)?[A-Za-z0-9_-]{43,128}$/;
const PREFIX_LENGTH = 12;
/** last_used_at is refreshed at most this often, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface IssuedKey {
  /** Shown once; never stored. */
  key: string;
  record: ApiKey;
}

/** Every API request hashes its key: the one-shot digest makes no Hash object (~0.6 µs less each). */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** 32 random bytes as 43 base62 characters, after the `chk_` / `chk_test_` prefix. */
export function generateApiKey(test = false): string {
  let value = BigInt(`0x${randomBytes(32).toString("hex")}`);
  let body = "";
  while (body.length < 43) {
    body = BASE62[Number(value % 62n)] + body;
    value /= 62n;
  }
  return `${test ? "chk_test_" : "chk_"}${body}`;
}

export async function createApiKey(
  em: EntityManager,
  branchId: number,
  role: Role,
  options: { label?: string; test?: boolean } = {},
): Promise<IssuedKey> {
  const branch = await em.findOne(BranchSchema, branchId);
  if (!branch) throw new NotFoundError(`Branch ${branchId} does not exist.`);
  const key = generateApiKey(options.test);
  const record = em.create(ApiKeySchema, {
    branch,
    role,
    label: options.label ?? `${role} key`,
    keyHash: hashApiKey(key),
    prefix: key.slice(0, PREFIX_LENGTH),
    test: options.test ?? false,
    createdAt: new Date(),
  });
  await em.flush();
  return { key, record };
}

/** Who an API request comes from, as every route needs it. */
export interface Caller {
  key: { id: number; label: string; test: boolean };
  branch: { id: number; business: { id: number } };
  role: Role;
}

interface KeyRow {
  id: number;
  label: string;
  test: boolean;
  role: Role;
  key_hash: string;
  last_used_at: Date | null;
  branch_id: number;
  business_id: number;
}

/**
 * Resolves a bearer key to its caller; any problem is the same 401, so keys cannot be probed. A key used
 * lately is answered from the cache without a query; otherwise one plain query: through the ORM, with two
 * relations, it costs seven times the CPU (docs/performance.md).
 */
export function createAuthenticator(orm: MikroORM, cache?: KeyCache) {
  return async function authenticate(presented: string | undefined): Promise<Caller> {
    if (!presented || !KEY_PATTERN.test(presented)) throw new AuthenticationError();
    const hash = hashApiKey(presented);
    const now = Date.now();
    const remembered = cache?.recall(hash, now) ?? (await readKey(orm.em.fork(), hash, cache, now));
    if (remembered.lastUsedAt === null || now - remembered.lastUsedAt > LAST_USED_RESOLUTION_MS) {
      // Marked before the write, so the requests arriving meanwhile do not write it too.
      remembered.lastUsedAt = now;
      await orm.em
        .fork()
        .nativeUpdate(ApiKeySchema, { id: remembered.caller.key.id }, { lastUsedAt: new Date(now) });
    }
    return remembered.caller;
  };
}

export type Authenticate = ReturnType<typeof createAuthenticator>;

async function readKey(
  em: EntityManager,
  hash: string,
  cache: KeyCache | undefined,
  now: number,
): Promise<RememberedKey> {
  const generation = cache?.generation ?? 0;
  const rows: KeyRow[] = await em.execute(
    `select k.id, k.label, k.test, k.role, k.key_hash, k.last_used_at, k.branch_id, b.business_id
       from api_keys k join branches b on b.id = k.branch_id
      where k.key_hash = ? and k.revoked_at is null`,
    [hash],
  );
  const key = rows[0];
  if (!key || !timingSafeEqual(Buffer.from(key.key_hash), Buffer.from(hash))) {
    throw new AuthenticationError();
  }
  const read: RememberedKey = {
    caller: {
      key: { id: key.id, label: key.label, test: key.test },
      branch: { id: key.branch_id, business: { id: key.business_id } },
      role: key.role,
    },
    lastUsedAt: key.last_used_at === null ? null : new Date(key.last_used_at).getTime(),
    readAt: now,
  };
  cache?.remember(hash, read, generation);
  return read;
}

/** Reads `Authorization: Bearer <key>`; undefined when absent or not a bearer header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** A branch's keys, newest first (hashes only; the keys themselves are never stored). */
export function listApiKeys(em: EntityManager, branchId: number): Promise<ApiKey[]> {
  return em.find(ApiKeySchema, { branch: branchId }, { orderBy: { id: "desc" } });
}

/** Revokes a key at once; returns null when no such key exists. Revoking twice keeps the first time. */
export async function revokeApiKey(em: EntityManager, id: number): Promise<ApiKey | null> {
  const key = await em.findOne(ApiKeySchema, id);
  if (!key) return null;
  key.revokedAt ??= new Date();
  await em.flush();
  return key;
}
