import { Router } from "@koa/router";
import type { ApiState } from "../context.js";

let document: ReturnType<typeof createOpenApiDocument> | undefined;

import { createOpenApiDocument } from "../openapi/document.js";

/**
 * GET /openapi.json: the contract as OpenAPI 3.1, built from the schemas the routes validate with on the
 * first request (not at start-up) and kept for the process.
 */
export function openApiRoutes(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get("/openapi.json", (ctx) => {
    document ??= createOpenApiDocument();
    ctx.body = document;
  });
  return router;
}
