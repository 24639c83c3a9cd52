import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { ApiKeySchema } from "./api-key.js";

/**
 * An `Idempotency-Key` of POST /verify (docs/api.md §6): claimed by the first request that
 * sends it (pending: `status` null), then holding that request's answer for 24 hours. Scoped to the API key,
 * so another client's key can never replay someone else's answer.
 */
export const IdempotencyKeySchema = defineEntity({
  name: "IdempotencyKey",
  tableName: "idempotency_keys",
  properties: (p) => ({
    apiKey: p.manyToOne(ApiKeySchema).primary().deleteRule("cascade"),
    key: p.string().length(255).primary(),
    /** SHA-256 (hex) of the request's canonical form: the same key with another request is refused. */
    fingerprint: p.string().length(64),
    /** Which claim holds the key: answers are stored and keys released only by the attempt that claimed it. */
    attempt: p.uuid(),
    /** The stored answer's HTTP status; null while the first request is still running. */
    status: p.smallint().nullable(),
    /** The stored answer's body as sent (json keeps its text as is, so a replay is the same bytes). */
    body: p.json<unknown>().columnType("json").nullable(),
    /** When the key was claimed: the 24 hours count from here. */
    createdAt: p.datetime().defaultRaw("now()"),
    /**
     * Until when the pending claim's process is known to be alive: it renews this every few hundred
     * milliseconds while it runs, so a claim left by a process that died can be taken over within a second.
     */
    leaseUntil: p.datetime().defaultRaw("now()"),
  }),
  primaryKeys: ["apiKey", "key"],
  // Expired rows are deleted a few at a time, oldest first, by later claims.
  indexes: [{ name: "idempotency_keys_created_at_index", properties: ["createdAt"] }],
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKeySchema>;
