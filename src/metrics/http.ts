import type { Context, Next } from "koa";
import type { Metrics } from "./registry.js";

/**
 * Counts the requests in flight, and times every request under the route pattern the router matched (`/api/v1/accounts/:id`), never the raw
 * path: ids and junk paths would make a new series each. Requests no route matched count as "unmatched".
 */
export function httpMetrics(metrics: Metrics) {
  return async function timeRequest(ctx: Context, next: Next): Promise<void> {
    const stop = metrics.httpSeconds.startTimer();
    metrics.httpInFlight.inc();
    try {
      await next();
    } finally {
      metrics.httpInFlight.dec();
      const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
      stop({
        method: ctx.method,
        route: typeof matched === "string" ? matched : "unmatched",
        status: String(ctx.status),
      });
    }
  };
}
