import { Router } from "@koa/router";
import type { MikroORM } from "@mikro-orm/postgresql";
import {
  createAccount,
  deleteAccount,
  listAccounts,
  updateAccount,
} from "../../src/accounts/saved-accounts.js";
import { NotFoundError } from "../../src/errors.js";
import { type ApiState, callerOf } from "../context.js";
import { bodyOf, jsonBody } from "../middleware/json-body.js";
import { presentAccount } from "../presenters.js";
import { parseInput } from "../validation.js";
import { pathId } from "./path-id.js";
import { createAccountSchema, updateAccountSchema } from "./schemas.js";

/** Saved receiving accounts of the caller's branch (docs/api.md §4.9–4.12). */
export function accountsRoutes(orm: MikroORM): Router<ApiState> {
  const router = new Router<ApiState>();
  const notFound = () => new NotFoundError("Account not found.");

  router.get("/accounts", async (ctx) => {
    const accounts = await listAccounts(orm.em.fork(), callerOf(ctx).branch.id);
    ctx.body = { accounts: accounts.map(presentAccount) };
  });

  router.post("/accounts", jsonBody, async (ctx) => {
    const input = parseInput(createAccountSchema, bodyOf(ctx));
    const account = await createAccount(orm.em.fork(), callerOf(ctx).branch.id, {
      bank: input.bank,
      accountNumber: input.account_number,
      label: input.label,
      isPrimary: input.is_primary,
    });
    ctx.status = 201;
    ctx.body = { account: presentAccount(account) };
  });

  router.patch("/accounts/:id", jsonBody, async (ctx) => {
    const id = pathId(ctx.params.id, notFound);
    const input = parseInput(updateAccountSchema, bodyOf(ctx));
    const account = await updateAccount(orm.em.fork(), callerOf(ctx).branch.id, id, {
      label: input.label,
      isPrimary: input.is_primary,
    });
    ctx.body = { account: presentAccount(account) };
  });

  router.delete("/accounts/:id", async (ctx) => {
    await deleteAccount(orm.em.fork(), callerOf(ctx).branch.id, pathId(ctx.params.id, notFound));
    ctx.body = { message: "Account deleted." };
  });

  return router;
}
