import type { MikroORM } from "@mikro-orm/postgresql";
import type { Next } from "koa";
import { z } from "zod";
import { IdempotencyKeyInProgressError, ValidationError } from "../../src/errors.js";
import { type ApiContext, callerOf } from "../context.js";
import { errorRenderer } from "../errors.js";
import { parseInput } from "../validation.js";
import { keepLeases } from "./claim-leases.js";
import { acquireKey, type KeyScope, releaseKey, storeAnswer } from "./idempotency-keys.js";
import { bodyOf } from "./json-body.js";
import { uploadedReceipt } from "./multipart.js";
import { requestFingerprint } from "./request-fingerprint.js";

// Idempotent retries of POST /verify (docs/api.md §6): a request repeated with the same
// Idempotency-Key and the same body gets the first one's answer again instead of running (and being told
// "duplicate" of itself).

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const KEY_REUSED = "The idempotency key was already used with a different request.";

/** 1–255 visible ASCII characters (a UUID is the usual choice). */
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/);

const headerSchema = z.object({ idempotency_key: idempotencyKeySchema.optional() });

export interface IdempotencyOptions {
  /** How long an answer is replayed. */
  ttlMs: number;
  /** A pending claim not renewed for this long was left by a process that died: the same request takes it over. */
  leaseMs: number;
  /** How often a running request's claim is renewed. */
  renewEveryMs: number;
  /** How long, from its arrival, a request waits for another one with its key before a 503. */
  waitMs: number;
  pollMs: number;
}

export const IDEMPOTENCY_DEFAULTS: IdempotencyOptions = {
  ttlMs: 24 * 60 * 60 * 1000,
  // A retry after a crash takes over within a second; a live process may pause 750 ms and keep its claims.
  leaseMs: 1_000,
  renewEveryMs: 250,
  // The default verification deadline (VERIFY_DEADLINE_MS, 25 s) plus 1 s: the first request has answered by then.
  waitMs: 26_000,
  pollMs: 100,
};

/**
 * For POST /verify, after its body is parsed (so the fields and the uploaded file can be fingerprinted).
 * Without the header the request runs as the contract says; every answer that ran says so with
 * `Idempotent-Replayed: false`.
 */
export function idempotentRetries(orm: MikroORM, options: Partial<IdempotencyOptions> = {}) {
  const settings = { ...IDEMPOTENCY_DEFAULTS, ...options };
  // Failures are rendered here, by the one renderer, so that a final failure (a 422) can be kept too.
  const renderErrors = errorRenderer();
  const leases = keepLeases(orm, settings);

  return async function idempotent(ctx: ApiContext, next: Next): Promise<void> {
    const key = idempotencyKeyOf(ctx);
    if (key === undefined) {
      ctx.set(REPLAYED_HEADER, "false");
      await next();
      return;
    }
    const em = orm.em.fork();
    const scope: KeyScope = { apiKeyId: callerOf(ctx).key.id, key };
    const fingerprint = await requestFingerprint(bodyOf(ctx), uploadedReceipt(ctx));
    const acquired = await acquireKey(em, scope, fingerprint, {
      ttlMs: settings.ttlMs,
      leaseMs: settings.leaseMs,
      waitUntil: (ctx.state.arrivedAt ?? Date.now()) + settings.waitMs,
      pollMs: settings.pollMs,
    });
    switch (acquired.kind) {
      case "mismatch":
        throw ValidationError.field("idempotency_key", KEY_REUSED);
      case "in_progress":
        throw new IdempotencyKeyInProgressError();
      case "answered":
        ctx.status = acquired.status;
        // The type before the body: Koa would call a string body text/plain.
        ctx.type = "application/json";
        ctx.body = acquired.body;
        ctx.set(REPLAYED_HEADER, "true");
        return;
    }

    ctx.set(REPLAYED_HEADER, "false");
    // The verification's deadline counts from here: a retry that took over a dead claim gets all of it.
    ctx.state.claimedAt = Date.now();
    ctx.state.keepAnswer = async (tx, status, body) => {
      // A claim taken over by a retry (this process stalled past its lease) records nothing: the retry does.
      if (!(await storeAnswer(tx, scope, acquired.attempt, status, JSON.stringify(body)))) {
        throw new IdempotencyKeyInProgressError();
      }
    };
    const release = leases.hold({ scope, attempt: acquired.attempt });
    try {
      await renderErrors(ctx, next);
      // Whether or not the client is still connected: a lost answer must be there for its retry.
      if (isFinal(ctx.status) && isJsonObject(ctx.body)) {
        await storeAnswer(em, scope, acquired.attempt, ctx.status, JSON.stringify(ctx.body));
      } else {
        await releaseKey(em, scope, acquired.attempt);
      }
    } catch (error) {
      // The answer itself stands; a pending claim left behind is taken over once its lease runs out.
      ctx.state.log.error({ err: error }, "idempotency key not settled");
    } finally {
      release();
    }
  };
}

/** The header's value; undefined when not sent. A malformed one is a 422 on `idempotency_key`. */
function idempotencyKeyOf(ctx: ApiContext): string | undefined {
  const raw = ctx.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  return parseInput(headerSchema, { idempotency_key: raw }).idempotency_key;
}

/**
 * Answers that are kept and replayed: what the request ended in, 2xx and 4xx. Not kept, so a retry runs
 * again: 5xx (the bank or the database failed, nothing was recorded), 402 (nothing was recorded, and the
 * retry after a plan upgrade should run), 408 and 429 (the request was not served), 499 (the client left
 * before anything was recorded).
 */
function isFinal(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && ![402, 408, 409, 429, 499].includes(status);
}

function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Buffer.isBuffer(body) && !("pipe" in body);
}
