import type { Next } from "koa";
import type { ApiContext } from "../context.js";

/**
 * While the instance drains, every answer says `Connection: close`: the client opens its next request's
 * connection elsewhere instead of reusing one that is about to close, and the drain need not wait for
 * kept-alive connections to idle out.
 */
export function closeConnectionsWhileDraining(draining: () => boolean) {
  return async function closeWhileDraining(ctx: ApiContext, next: Next): Promise<void> {
    try {
      await next();
    } finally {
      if (draining()) ctx.set("Connection", "close");
    }
  };
}
