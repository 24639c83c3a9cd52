import { Router } from "@koa/router";
import type { ApiState } from "../context.js";
import { createOpenApiDocument } from "../openapi/document.js";
import type { SandboxExamples } from "../openapi/examples.js";

/**
 * GET /openapi.json: the contract as OpenAPI 3.1, built from the schemas the routes validate with on the
 * first request (not at start-up) and kept for the application; its examples are the sandbox's receipts.
 */
export function openApiRoutes(sandbox: SandboxExamples): Router<ApiState> {
  const router = new Router<ApiState>();
  let document: ReturnType<typeof createOpenApiDocument> | undefined;
  router.get("/openapi.json", (ctx) => {
    document ??= createOpenApiDocument(sandbox);
    ctx.body = document;
  });
  return router;
}
