import type { Next } from "koa";
import { type Authenticate, bearerToken } from "../../src/auth/api-keys.js";
import { isManager } from "../../src/auth/roles.js";
import { AuthorizationError } from "../../src/errors.js";
import { type ApiContext, callerOf } from "../context.js";

/** Resolves `Authorization: Bearer chk_…` to the caller (key, branch, role) or answers 401. */
export function requireApiKey(authenticate: Authenticate) {
  return async function withApiKey(ctx: ApiContext, next: Next): Promise<void> {
    ctx.state.caller = await authenticate(bearerToken(ctx.get("Authorization")));
    await next();
  };
}

/** Manager or admin role required; a cashier key gets 403. */
export async function requireManager(ctx: ApiContext, next: Next): Promise<void> {
  if (!isManager(callerOf(ctx).role)) throw new AuthorizationError();
  await next();
}
