import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import { addisDay } from "../../src/addis-time.js";
import { NotFoundError, VERIFICATION_NOT_FOUND_MESSAGE } from "../../src/errors.js";
import { exportVerifications } from "../../src/history/export.js";
import {
  deleteVerification,
  deleteVerifications,
  getVerification,
  listVerifications,
} from "../../src/history/verifications.js";
import { type ApiState, callerOf } from "../context.js";
import { requireManager } from "../middleware/auth.js";
import { bodyOf, jsonBody } from "../middleware/json-body.js";
import { presentVerificationRecord } from "../presenters.js";
import { startStreaming } from "../streaming.js";
import { parseInput } from "../validation.js";
import { pathId } from "./path-id.js";
import { bulkDeleteSchema, exportQuerySchema, historyQuerySchema } from "./schemas.js";

const DEFAULT_LIMIT = 100;

/**
 * Verification history of the caller's branch (docs/api.md §4.4–4.7). A sandbox key (chk_test_…) sees only
 * the sandbox's records and a live key only the real ones, so a test confirmation never reads as a payment.
 */
export function verificationsRoutes(orm: MikroORM): Router<ApiState> {
  const router = new Router<ApiState>();
  const notFound = () => new NotFoundError(VERIFICATION_NOT_FOUND_MESSAGE);

  router.get("/verifications", async (ctx) => {
    const query = parseInput(historyQuerySchema, lastValues(ctx.query));
    const { branch, key } = callerOf(ctx);
    const verifications = await listVerifications(orm.em.fork(), branch.id, {
      limit: query.limit ?? DEFAULT_LIMIT,
      period: query.period,
      success: query.success,
      sandbox: key.test,
    });
    ctx.body = { verifications: verifications.map(presentVerificationRecord) };
  });

  // Before /:id, so "export" is not read as an id. Birrcheck's addition (docs/api.md §4.14).
  router.get("/verifications/export", requireManager, async (ctx) => {
    const query = parseInput(exportQuerySchema, lastValues(ctx.query));
    const { branch, key } = callerOf(ctx);
    const branchId = branch.id;
    const chunks = exportVerifications(orm.em, branchId, {
      period: query.period,
      success: query.success,
      limit: query.limit,
      sandbox: key.test,
    });
    ctx.body = await startStreaming(chunks, (error) =>
      ctx.state.log.error({ err: error }, "verification export failed while streaming"),
    );
    ctx.type = "text/csv; charset=utf-8";
    ctx.set(
      "Content-Disposition",
      `attachment; filename="verifications-${branchId}-${addisDay(new Date())}.csv"`,
    );
  });

  // Before /:id, so "bulk" is not read as an id.
  router.delete("/verifications/bulk", requireManager, jsonBody, async (ctx) => {
    const { ids } = parseInput(bulkDeleteSchema, bodyOf(ctx));
    const { branch, key } = callerOf(ctx);
    const deleted = await deleteVerifications(orm.em.fork(), branch.id, ids, key.test);
    ctx.body = {
      message: `${deleted} ${deleted === 1 ? "verification" : "verifications"} deleted.`,
      deleted,
    };
  });

  router.get("/verifications/:id", async (ctx) => {
    const { branch, key } = callerOf(ctx);
    const verification = await getVerification(
      orm.em.fork(),
      branch.id,
      pathId(ctx.params.id, notFound),
      key.test,
    );
    ctx.body = { verification: presentVerificationRecord(verification) };
  });

  router.delete("/verifications/:id", async (ctx) => {
    const { branch, key } = callerOf(ctx);
    await deleteVerification(orm.em.fork(), branch.id, pathId(ctx.params.id, notFound), key.test);
    ctx.body = { message: "Verification deleted." };
  });

  return router;
}

/** A repeated query parameter counts once, with its last value (as PHP and Laravel read it). */
function lastValues(
  query: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, Array.isArray(value) ? value.at(-1) : value]),
  );
}
