import type { ParameterizedContext } from "koa";
import type { Caller } from "../src/auth/api-keys.js";
import type { Logger } from "../src/logger.js";

export interface ApiState {
  requestId: string;
  log: Logger;
  /** Set by the auth middleware on authenticated routes. */
  caller?: Caller;
}

export type ApiContext = ParameterizedContext<ApiState>;

/** The authenticated caller; routes behind `requireApiKey` always have one. */
export function callerOf(ctx: ApiContext): Caller {
  const caller = ctx.state.caller;
  if (!caller) throw new Error("callerOf() used on a route without requireApiKey");
  return caller;
}
