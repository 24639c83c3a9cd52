import { Router } from "@koa/router";
import type { ApiState } from "../context.js";
import { presentBanks } from "../presenters.js";

/** GET /banks: the catalogue, without authentication (docs/api.md §4.8). */
export function banksRoutes(): Router<ApiState> {
  const router = new Router<ApiState>();
  const banks = presentBanks();
  router.get("/banks", (ctx) => {
    ctx.body = { banks };
  });
  return router;
}
