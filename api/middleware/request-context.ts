import { randomUUID } from "node:crypto";
import type { Next } from "koa";
import type { Logger } from "../../src/logger.js";
import type { ApiContext } from "../context.js";

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when sane), a child logger, and one access-log
 * line. Only method, route, status and timing are logged: never bodies, keys or accounts.
 */
export function requestContext(logger: Logger) {
  return async function withRequestContext(ctx: ApiContext, next: Next): Promise<void> {
    const incoming = ctx.get("X-Request-Id");
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    ctx.state.arrivedAt = Date.now();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set("X-Request-Id", requestId);
    try {
      await next();
    } finally {
      const caller = ctx.state.caller;
      ctx.state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(caller ? { branchId: caller.branch.id, keyId: caller.key.id } : {}),
        },
        "request",
      );
    }
  };
}
