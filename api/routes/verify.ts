import { Router } from "@koa/router";
import type { VerificationEngine } from "../../src/engine/index.js";
import type { VerifyCaller } from "../../src/engine/types.js";
import { type ApiContext, type ApiState, callerOf } from "../context.js";
import { bodyOf, jsonBody } from "../middleware/json-body.js";
import { presentParsedUrl, presentVerificationResult } from "../presenters.js";
import { parseInput } from "../validation.js";
import { parseUrlBodySchema, parseVerifyBody } from "./verify-schema.js";

/** POST /verify (spec 4.1) and POST /verify/parse-url (4.2). */
export function verifyRoutes(engine: VerificationEngine): Router<ApiState> {
  const router = new Router<ApiState>();

  router.post("/verify", jsonBody, async (ctx) => {
    const input = parseVerifyBody(bodyOf(ctx));
    const { status, body } = presentVerificationResult(await engine.verify(verifyCaller(ctx), input));
    ctx.status = status;
    ctx.body = body;
  });

  router.post("/verify/parse-url", jsonBody, (ctx) => {
    const { receipt_url } = parseInput(parseUrlBodySchema, bodyOf(ctx));
    ctx.body = presentParsedUrl(engine.parseReceiptUrl(receipt_url));
  });

  return router;
}

/** The key's branch and business; sandbox keys are reported as source "test". */
export function verifyCaller(ctx: ApiContext): VerifyCaller {
  const { key, branch } = callerOf(ctx);
  return {
    branchId: branch.id,
    businessId: branch.business.id,
    sandbox: key.test,
    source: { type: key.test ? "test" : "api", label: key.label },
  };
}
