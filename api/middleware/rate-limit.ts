import type { Next } from "koa";
import { TooManyAttemptsError } from "../../src/errors.js";
import { RateLimiter } from "../../src/rate-limit.js";
import { type ApiContext, callerOf } from "../context.js";

/**
 * At most `perMinute` requests per API key (after authentication), with Laravel's X-RateLimit headers;
 * beyond it 429 {"message":"Too Many Attempts."} and Retry-After.
 */
export function rateLimitPerKey(perMinute: number) {
  const limiter = new RateLimiter(perMinute, 60_000);
  return async function limitPerKey(ctx: ApiContext, next: Next): Promise<void> {
    const decision = limiter.hit(String(callerOf(ctx).key.id));
    ctx.set("X-RateLimit-Limit", String(decision.limit));
    ctx.set("X-RateLimit-Remaining", String(decision.remaining));
    if (!decision.allowed) throw new TooManyAttemptsError(decision.retryAfterS);
    await next();
  };
}
