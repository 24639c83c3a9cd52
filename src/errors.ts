/**
 * The failure vocabulary shared by the API and the bot. Business outcomes (confirmed, not found, duplicate)
 * are values, not errors; these are for requests that cannot be served. api/errors.ts renders them.
 */

/** The message of every 422 (docs/api.md §7), beside its per-field `errors`. */
export const INVALID_DATA_MESSAGE = "The given data was invalid.";

/** A history record the caller's branch does not have: 404. */
export const VERIFICATION_NOT_FOUND_MESSAGE = "Verification not found.";

/** Field-level validation failures: 422 with Laravel-style `errors`. */
export class ValidationError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors).flat()[0] ?? INVALID_DATA_MESSAGE);
    this.name = "ValidationError";
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** The request as a whole is unusable (malformed body, unsupported input): 400. */
export class BadRequestError extends Error {
  override name = "BadRequestError";
}

/** Missing, malformed, unknown or revoked credentials: 401. */
export class AuthenticationError extends Error {
  override name = "AuthenticationError";
  constructor() {
    super("Unauthenticated.");
  }
}

/** Authenticated, but the role does not allow this action: 403. */
export class AuthorizationError extends Error {
  override name = "AuthorizationError";
  constructor() {
    super("This action is unauthorized.");
  }
}

/** A record that does not exist in the caller's branch (other branches' records included): 404. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

/** The business has used its monthly verifications: 402. */
export class QuotaExceededError extends Error {
  override name = "QuotaExceededError";
  constructor() {
    super("Monthly verification limit reached. Please upgrade your plan.");
  }
}

/** Too many requests from one API key or Telegram user in the current window: 429 with Retry-After. */
export class TooManyAttemptsError extends Error {
  override name = "TooManyAttemptsError";
  constructor(readonly retryAfterS: number) {
    super("Too Many Attempts.");
  }
}

/**
 * The first request with this Idempotency-Key is still running after the time a retry may wait for it: 503,
 * nothing done for this one, and the same retry later gets the first request's answer.
 */
export class IdempotencyKeyInProgressError extends Error {
  override name = "IdempotencyKeyInProgressError";
  constructor() {
    super("A request with this idempotency key is still in progress. Please try again later.");
  }
}

/**
 * The client went away before its answer (the connection closed): its work is abandoned and nothing is
 * recorded for it. Nobody reads the answer; the API logs it as 499 (nginx's "client closed request").
 */
export class ClientClosedRequestError extends Error {
  override name = "ClientClosedRequestError";
  constructor() {
    super("The client closed the request.");
  }
}

/** The 503 of a service (or database) that cannot serve the request right now. */
export const UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Please try again later.";

/** The service cannot serve the request right now (shutting down, database unreachable): 503. */
export class ServiceUnavailableError extends Error {
  override name = "ServiceUnavailableError";
  /** Sent as Retry-After when set: when a retry may succeed. */
  readonly retryAfterS: number | undefined;
  constructor(retryAfterS?: number) {
    super(UNAVAILABLE_MESSAGE);
    this.retryAfterS = retryAfterS;
  }
}
