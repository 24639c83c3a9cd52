import type { Server } from "node:http";
import type { HttpTimeouts } from "../src/config.js";

/** How often Node looks for requests past headersTimeout/requestTimeout (its default, 30 s, adds up to that much). */
const MAX_CHECK_INTERVAL_MS = 1_000;

/**
 * Time limits for life behind a load balancer. Idle keep-alive connections stay open longer than the
 * balancer's own idle timeout (60 s on common ones), so it never reuses a socket we are closing; a request
 * whose headers or body do not arrive in time is answered 408 (api/client-errors.ts) instead of holding a
 * socket for minutes. Call before the server emits "listening": Node starts its timeout checker then.
 */
export function applyServerTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  // A tenth of the shortest limit, so a timed-out request is answered close to its limit. A createServer
  // option that @types/node does not declare on the instance; Node reads it on "listening".
  Object.assign(server, {
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(timeouts.headersMs / 10)),
    ),
  });
}
