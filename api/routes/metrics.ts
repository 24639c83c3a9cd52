import { createHash, timingSafeEqual } from "node:crypto";
import { Router } from "@koa/router";
import type { Metrics } from "../../src/metrics/registry.js";
import type { ApiState } from "../context.js";

/**
 * GET /metrics in Prometheus text, outside /api/v1 (no API key, no rate limit). With a token configured
 * it needs `Authorization: Bearer <token>`, else 401 in the API's JSON.
 */
export function metricsRoutes(metrics: Metrics, token: string | undefined): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get("/metrics", async (ctx) => {
    if (token !== undefined && !bearerMatches(ctx.get("authorization"), token)) {
      ctx.status = 401;
      ctx.body = { message: "Unauthenticated." };
      return;
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.scrape();
  });
  return router;
}

function bearerMatches(header: string, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header.trim());
  if (!match?.[1]) return false;
  // Digests are of equal length, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
