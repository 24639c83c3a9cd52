import type { Next } from "koa";
import type { DatabaseAvailability } from "../../src/db/availability.js";
import { ServiceUnavailableError } from "../../src/errors.js";
import type { ApiContext } from "../context.js";

/** Retry-After of a refusal: the gate's probe looks again every ~100 ms, so a second is plenty. */
const REFUSED_RETRY_AFTER_S = 1;

/** Hands every request the process's view of its database: the error renderers report failures to it. */
export function watchDatabase(database: DatabaseAvailability) {
  return function withDatabase(ctx: ApiContext, next: Next): Promise<void> {
    ctx.state.database = database;
    return next();
  };
}

/**
 * Before a route that needs the database: while this process knows it cannot reach it, the request is
 * refused at once (503, Retry-After) instead of waiting out the pool's acquire timeout like the one before.
 */
export function refuseWhileDatabaseUnreachable(onRefused: () => void) {
  return function refuseWithoutDatabase(ctx: ApiContext, next: Next): Promise<void> {
    if (ctx.state.database?.reachable() === false) {
      onRefused();
      throw new ServiceUnavailableError(REFUSED_RETRY_AFTER_S);
    }
    return next();
  };
}
