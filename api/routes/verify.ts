import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Next } from "koa";
import type { VerificationEngine, VerifyOptions } from "../../src/engine/index.js";
import type { VerifyCaller, VerifyInput } from "../../src/engine/types.js";
import { ClientClosedRequestError } from "../../src/errors.js";
import type { ReceiptReader } from "../../src/receipts/reader.js";
import { type ApiContext, type ApiState, callerOf } from "../context.js";
import { idempotentRetries } from "../middleware/idempotency.js";
import { bodyOf, jsonBody } from "../middleware/json-body.js";
import { multipartBody, uploadedReceipt } from "../middleware/multipart.js";
import { presentParsedReceipt, presentParsedUrl, presentVerificationResult } from "../presenters.js";
import { parseInput } from "../validation.js";
import {
  parseReceiptBody,
  parseUrlBodySchema,
  parseVerifyBody,
  type VerifyRequest,
} from "./verify-schema.js";

/** POST /verify (docs/api.md §4.1), /verify/parse-url (4.2) and /verify/parse-receipt (4.3). */
export function verifyRoutes(
  engine: VerificationEngine,
  reader: ReceiptReader,
  orm: MikroORM,
): Router<ApiState> {
  const router = new Router<ApiState>();

  // Idempotency-Key after the body is parsed: the key is bound to the fields and the uploaded file.
  // The request holding a key ends by its deadline, so one waiting for it has its answer by then.
  const idempotency = idempotentRetries(orm, { waitMs: engine.deadlineMs + 1_000 });
  router.post("/verify", jsonOrMultipart, idempotency, async (ctx) => {
    const request = parseVerifyBody(bodyOf(ctx), uploadedReceipt(ctx));
    const input = await engineInput(request, reader);
    const keep = ctx.state.keepAnswer;
    const options: VerifyOptions = {
      startedAt: ctx.state.claimedAt ?? ctx.state.arrivedAt,
      signal: clientGone(ctx),
      ...(keep && {
        whileRecording: (tx, outcome) => {
          const answer = presentVerificationResult(outcome);
          return keep(tx, answer.status, answer.body);
        },
      }),
    };
    const { status, body } = presentVerificationResult(
      await engine.verify(verifyCaller(ctx), input, options),
    );
    ctx.status = status;
    ctx.body = body;
  });

  router.post("/verify/parse-url", jsonBody, (ctx) => {
    const { receipt_url } = parseInput(parseUrlBodySchema, bodyOf(ctx));
    ctx.body = presentParsedUrl(engine.parseReceiptUrl(receipt_url));
  });

  router.post("/verify/parse-receipt", jsonOrMultipart, async (ctx) => {
    const { claim } = await reader.read({
      ...parseReceiptBody(bodyOf(ctx), uploadedReceipt(ctx)),
      fields: true,
    });
    ctx.body = presentParsedReceipt(engine.describeReceipt(claim));
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

/**
 * Fires when the client's connection closes before its answer was sent: its bank lookup is abandoned (unless
 * another caller waits on the same one) and nothing is recorded for it.
 */
function clientGone(ctx: ApiContext): AbortSignal {
  const gone = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) gone.abort(new ClientClosedRequestError());
  };
  if (ctx.req.socket.destroyed) onClose();
  else ctx.res.once("close", onClose);
  return gone.signal;
}

/** A receipt document is read first (PDF, text, OCR); the engine then verifies what it claims. */
async function engineInput(request: VerifyRequest, reader: ReceiptReader): Promise<VerifyInput> {
  if (request.kind !== "document") return request;
  const { kind: _document, document, ...account } = request;
  const { claim, method, field } = await reader.read(document);
  return { kind: "receipt", claim, method, field, ...account };
}

/** Receipt uploads are multipart/form-data (docs/api.md §4.1); everything else is JSON. */
function jsonOrMultipart(ctx: ApiContext, next: Next): Promise<void> {
  return ctx.is("multipart") ? multipartBody(ctx, next) : jsonBody(ctx, next);
}
