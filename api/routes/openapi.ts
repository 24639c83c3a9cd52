import { Router } from "@koa/router";
import type { ApiState } from "../context.js";
import { createOpenApiDocument } from "../openapi/document.js";

/** GET /openapi.json: the contract as OpenAPI 3.1, built once from the schemas the routes validate with. */
export function openApiRoutes(): Router<ApiState> {
  const router = new Router<ApiState>();
  const document = createOpenApiDocument();
  router.get("/openapi.json", (ctx) => {
    ctx.body = document;
  });
  return router;
}
