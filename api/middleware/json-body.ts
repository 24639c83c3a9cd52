import type { Next } from "koa";
import { HttpMethodEnum, koaBody } from "koa-body";
import { BadRequestError } from "../../src/errors.js";
import type { ApiContext } from "../context.js";

export const JSON_LIMIT = "256kb";

/** The 400 of a body that does not parse as JSON (the OpenAPI document shows it). */
export const INVALID_JSON_MESSAGE = "The request body is not valid JSON.";

const parseJson = koaBody({
  json: true,
  jsonLimit: JSON_LIMIT,
  jsonStrict: true,
  multipart: false,
  urlencoded: false,
  text: false,
  parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
});

/**
 * Parses a JSON object body (at most 256 kB). Malformed JSON, a body that is not an object, or a body sent
 * with another content type is a 400; an oversized one a 413.
 */
export async function jsonBody(ctx: ApiContext, next: Next): Promise<void> {
  if (ctx.request.length && !ctx.is("application/json", "+json")) {
    throw new BadRequestError("The request body must be JSON, sent with Content-Type: application/json.");
  }
  try {
    await parseJson(ctx, async () => undefined);
  } catch (error) {
    if ((error as { status?: number }).status === 413) throw error;
    if (error instanceof SyntaxError && error.message.includes("only supports object and array")) {
      throw new BadRequestError("The request body must be a JSON object.");
    }
    throw new BadRequestError(INVALID_JSON_MESSAGE, { cause: error });
  }
  const body: unknown = ctx.request.body;
  if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) {
    throw new BadRequestError("The request body must be a JSON object.");
  }
  await next();
}

/** The parsed body, or an empty object when none was sent. */
export function bodyOf(ctx: ApiContext): Record<string, unknown> {
  const body: unknown = ctx.request.body;
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
