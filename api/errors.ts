import type { Context, Next } from "koa";
import { bankName } from "../src/banks/catalogue.js";
import { BankUnavailableError, ReceiptFormatError } from "../src/banks/errors.js";
import { isDatabaseUnavailable } from "../src/db/unavailable.js";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  ClientClosedRequestError,
  IdempotencyKeyInProgressError,
  NotFoundError,
  QuotaExceededError,
  ServiceUnavailableError,
  TooManyAttemptsError,
  ValidationError,
} from "../src/errors.js";
import type { Logger } from "../src/logger.js";

interface Rendered {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Turns every failure into the contract's JSON, in one place. Unknown errors are logged with the request id
 * and answered with a bare 500, so nothing internal leaks.
 */
export function errorRenderer() {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const rendered = render(error);
      if (rendered.status >= 500) {
        (ctx.state.log as Logger | undefined)?.error({ err: error }, "request failed");
      }
      ctx.status = rendered.status;
      ctx.body = rendered.body;
      if (error instanceof TooManyAttemptsError) ctx.set("Retry-After", String(error.retryAfterS));
    }
  };
}

function render(error: unknown): Rendered {
  if (error instanceof ValidationError) {
    return { status: 422, body: { message: "The given data was invalid.", errors: error.errors } };
  }
  if (error instanceof AuthenticationError) return message(401, error.message);
  if (error instanceof AuthorizationError) return message(403, error.message);
  if (error instanceof NotFoundError) return message(404, error.message);
  if (error instanceof BadRequestError) return message(400, error.message);
  if (error instanceof QuotaExceededError) return message(402, error.message);
  if (error instanceof TooManyAttemptsError) return message(429, error.message);
  if (error instanceof IdempotencyKeyInProgressError) return message(503, error.message);
  if (error instanceof ServiceUnavailableError) return message(503, error.message);
  // Nobody reads it: the status only tells the access log and the metrics what happened.
  if (error instanceof ClientClosedRequestError) return message(499, error.message);
  if (error instanceof BankUnavailableError) {
    return message(503, `${bankName(error.bank)} is not responding. Please try again later.`);
  }
  if (error instanceof ReceiptFormatError) {
    return message(
      502,
      `${bankName(error.bank)} sent an answer that could not be read. Please try again later.`,
    );
  }
  // Down, stalled (statement or acquire timeout) or out of connections: a 503, never a 500.
  if (isDatabaseUnavailable(error))
    return message(503, "The service is temporarily unavailable. Please try again later.");
  return renderHttpError(error) ?? message(500, "Server Error.");
}

/** Errors raised by Koa, the router and the body parser carry an HTTP status; map the ones a client causes. */
function renderHttpError(error: unknown): Rendered | null {
  if (typeof error !== "object" || error === null) return null;
  const { status, statusCode } = error as { status?: number; statusCode?: number };
  const code = status ?? statusCode;
  if (code === 413) return message(413, "The request body is too large.");
  if (code === 400) return message(400, "The request is malformed.");
  return null;
}

function message(status: number, text: string): Rendered {
  return { status, body: { message: text } };
}
