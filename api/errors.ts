import type { Context, Next } from "koa";
import { bankName } from "../src/banks/catalogue.js";
import type { BankCode } from "../src/banks/codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../src/banks/errors.js";
import { isDatabaseUnavailable } from "../src/db/unavailable.js";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  ClientClosedRequestError,
  IdempotencyKeyInProgressError,
  INVALID_DATA_MESSAGE,
  NotFoundError,
  QuotaExceededError,
  ServiceUnavailableError,
  TooManyAttemptsError,
  UNAVAILABLE_MESSAGE,
  ValidationError,
} from "../src/errors.js";
import type { Logger } from "../src/logger.js";
import type { ApiState } from "./context.js";

/** The texts this renderer writes itself (the error classes carry the others); the OpenAPI document shows them. */
export const RENDERED_MESSAGES = {
  serverError: "Server Error.",
  tooLarge: "The request body is too large.",
  malformed: "The request is malformed.",
  bankUnavailable: (bank: BankCode) => `${bankName(bank)} is not responding. Please try again later.`,
  bankAnswerUnreadable: (bank: BankCode) =>
    `${bankName(bank)} sent an answer that could not be read. Please try again later.`,
} as const;

interface Rendered {
  status: number;
  body: Record<string, unknown>;
  /** Seconds, sent as Retry-After. */
  retryAfterS?: number | undefined;
}

/** A database that cannot be reached is usually back within a second or two (a restart, a failover). */
const DATABASE_RETRY_AFTER_S = 1;

/**
 * Turns every failure into the contract's JSON, in one place. Unknown errors are logged with the request id
 * and answered with a bare 500, so nothing internal leaks.
 */
export function errorRenderer() {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      // The process learns from every failed statement whether it can reach its database (src/db/availability.ts).
      (ctx.state as Partial<ApiState>).database?.observe(error);
      const rendered = render(error);
      if (rendered.status >= 500) {
        (ctx.state.log as Logger | undefined)?.error({ err: error }, "request failed");
      }
      ctx.status = rendered.status;
      ctx.body = rendered.body;
      if (rendered.retryAfterS !== undefined) ctx.set("Retry-After", String(rendered.retryAfterS));
    }
  };
}

function render(error: unknown): Rendered {
  if (error instanceof ValidationError) {
    return { status: 422, body: { message: INVALID_DATA_MESSAGE, errors: error.errors } };
  }
  if (error instanceof AuthenticationError) return message(401, error.message);
  if (error instanceof AuthorizationError) return message(403, error.message);
  if (error instanceof NotFoundError) return message(404, error.message);
  if (error instanceof BadRequestError) return message(400, error.message);
  if (error instanceof QuotaExceededError) return message(402, error.message);
  if (error instanceof TooManyAttemptsError)
    return { ...message(429, error.message), retryAfterS: error.retryAfterS };
  if (error instanceof IdempotencyKeyInProgressError) return message(503, error.message);
  if (error instanceof ServiceUnavailableError)
    return { ...message(503, error.message), retryAfterS: error.retryAfterS };
  // Nobody reads it: the status only tells the access log and the metrics what happened.
  if (error instanceof ClientClosedRequestError) return message(499, error.message);
  if (error instanceof BankUnavailableError) {
    return message(503, RENDERED_MESSAGES.bankUnavailable(error.bank));
  }
  if (error instanceof ReceiptFormatError) {
    return message(502, RENDERED_MESSAGES.bankAnswerUnreadable(error.bank));
  }
  // Down, stalled (statement or acquire timeout) or out of connections: a 503, never a 500.
  if (isDatabaseUnavailable(error))
    return { ...message(503, UNAVAILABLE_MESSAGE), retryAfterS: DATABASE_RETRY_AFTER_S };
  return renderHttpError(error) ?? message(500, RENDERED_MESSAGES.serverError);
}

/** Errors raised by Koa, the router and the body parser carry an HTTP status; map the ones a client causes. */
function renderHttpError(error: unknown): Rendered | null {
  if (typeof error !== "object" || error === null) return null;
  const { status, statusCode } = error as { status?: number; statusCode?: number };
  const code = status ?? statusCode;
  if (code === 413) return message(413, RENDERED_MESSAGES.tooLarge);
  if (code === 400) return message(400, RENDERED_MESSAGES.malformed);
  return null;
}

function message(status: number, text: string): Rendered {
  return { status, body: { message: text } };
}
