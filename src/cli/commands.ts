import type { EntityManager } from "@mikro-orm/postgresql";
import { z } from "zod";
import { createBranch, createBusiness, listBranches, listBusinesses, setPlan } from "../admin/businesses.js";
import { createApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys.js";
import { ROLES } from "../auth/roles.js";
import { BusinessSchema } from "../db/entities/index.js";
import { quotaMonth } from "../engine/quota.js";
import { NotFoundError } from "../errors.js";
import { createInvite } from "../telegram/invites.js";

/** Bad command-line arguments: exit code 2 with the usage text. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface CommandResult {
  /** Printed with --json. */
  data: unknown;
  /** Printed otherwise. */
  text: string;
}

type FlagSpec = Record<string, { type: "string" | "boolean" }>;

export interface Command {
  summary: string;
  flags: FlagSpec;
  run(em: EntityManager, values: Record<string, unknown>): Promise<CommandResult>;
}

/** Binds a flag schema to its handler, so the handler receives typed, validated arguments. */
function command<S extends z.ZodType>(
  summary: string,
  flags: FlagSpec,
  schema: S,
  handler: (em: EntityManager, args: z.output<S>) => Promise<CommandResult>,
): Command {
  return {
    summary,
    flags,
    run: (em, values) => {
      const parsed = schema.safeParse(values);
      if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join("\n"));
      return handler(em, parsed.data);
    },
  };
}

const positive = (flag: string) =>
  z
    .string({ error: `--${flag} is required.` })
    .regex(/^[1-9]\d*$/, `--${flag} must be a positive whole number.`)
    .transform(Number);
const quota = z
  .string({ error: "--quota is required." })
  .regex(/^\d+$/, "--quota must be a whole number, 0 or more.")
  .transform(Number);
const text = (flag: string) =>
  z
    .string({ error: `--${flag} is required.` })
    .trim()
    .min(1, `--${flag} must not be empty.`)
    .max(200);
const role = z.enum(ROLES, { error: `--role must be one of: ${ROLES.join(", ")}.` });

export const COMMANDS: Record<string, Command> = {
  "business:create": command(
    "--name <name> --quota <monthly verifications>",
    { name: { type: "string" }, quota: { type: "string" } },
    z.object({ name: text("name"), quota }),
    async (em, args) => {
      const business = await createBusiness(em, args.name, args.quota);
      return {
        data: { id: business.id, name: business.name, monthly_quota: business.monthlyQuota },
        text: `Created business ${business.id} "${business.name}" with a monthly quota of ${business.monthlyQuota}.`,
      };
    },
  ),
  "business:list": command("", {}, z.object({}), async (em) => {
    const businesses = await listBusinesses(em, quotaMonth(new Date()));
    const data = businesses.map((b) => ({
      id: b.id,
      name: b.name,
      monthly_quota: b.monthlyQuota,
      used_this_month: b.usedThisMonth,
      branches: b.branches,
    }));
    const lines = data.map(
      (b) =>
        `${String(b.id).padStart(4)}  ${b.name}  (quota ${b.used_this_month}/${b.monthly_quota} this month, ${b.branches} ${b.branches === 1 ? "branch" : "branches"})`,
    );
    return { data, text: lines.length ? lines.join("\n") : "There are no businesses yet." };
  }),
  "branch:create": command(
    "--business <id> --name <name>",
    { business: { type: "string" }, name: { type: "string" } },
    z.object({ business: positive("business"), name: text("name") }),
    async (em, args) => {
      const branch = await createBranch(em, args.business, args.name);
      return {
        data: { id: branch.id, business_id: args.business, name: branch.name },
        text: `Created branch ${branch.id} "${branch.name}" in business ${args.business}.`,
      };
    },
  ),
  "branch:list": command(
    "[--business <id>]",
    { business: { type: "string" } },
    z.object({ business: positive("business").optional() }),
    async (em, args) => {
      if (args.business !== undefined && !(await em.findOne(BusinessSchema, args.business))) {
        throw new NotFoundError(`Business ${args.business} does not exist.`);
      }
      const branches = await listBranches(em, args.business);
      const data = branches.map((b) => ({
        id: b.id,
        business_id: b.businessId,
        business_name: b.businessName,
        name: b.name,
        active_keys: b.activeKeys,
      }));
      const lines = data.map(
        (b) =>
          `${String(b.id).padStart(4)}  ${b.name}  (business ${b.business_id} "${b.business_name}", ${b.active_keys} active ${b.active_keys === 1 ? "key" : "keys"})`,
      );
      return { data, text: lines.length ? lines.join("\n") : "There are no branches yet." };
    },
  ),
  "key:create": command(
    "--branch <id> --role <cashier|manager|admin> [--label <label>] [--test]",
    {
      branch: { type: "string" },
      role: { type: "string" },
      label: { type: "string" },
      test: { type: "boolean" },
    },
    z.object({
      branch: positive("branch"),
      role,
      label: z
        .string()
        .trim()
        .min(1, "--label must not be empty.")
        .max(100, "--label is too long.")
        .optional(),
      test: z.boolean().default(false),
    }),
    async (em, args) => {
      const { key, record } = await createApiKey(em, args.branch, args.role, {
        label: args.label,
        test: args.test,
      });
      return {
        data: { id: record.id, key, role: record.role, label: record.label, test: record.test },
        text: [
          `Created ${record.test ? "sandbox " : ""}${record.role} key ${record.id} "${record.label}" for branch ${args.branch}.`,
          "Store it now; it is shown only once:",
          "",
          `  ${key}`,
        ].join("\n"),
      };
    },
  ),
  "key:list": command(
    "--branch <id>",
    { branch: { type: "string" } },
    z.object({ branch: positive("branch") }),
    async (em, args) => {
      const keys = await listApiKeys(em, args.branch);
      const data = keys.map((k) => ({
        id: k.id,
        prefix: k.prefix,
        role: k.role,
        label: k.label,
        test: k.test,
        created_at: k.createdAt.toISOString(),
        last_used_at: k.lastUsedAt?.toISOString() ?? null,
        revoked_at: k.revokedAt?.toISOString() ?? null,
      }));
      const lines = data.map(
        (k) =>
          `${String(k.id).padStart(4)}  ${k.prefix}…  ${k.test ? "sandbox" : "live   "}  ${k.role.padEnd(7)}  ${k.revoked_at ? "revoked" : "active "}  ${k.label}`,
      );
      return { data, text: lines.length ? lines.join("\n") : `Branch ${args.branch} has no API keys.` };
    },
  ),
  "key:revoke": command(
    "--id <key id>",
    { id: { type: "string" } },
    z.object({ id: positive("id") }),
    async (em, args) => {
      const key = await revokeApiKey(em, args.id);
      if (!key) throw new NotFoundError(`API key ${args.id} does not exist.`);
      return {
        data: { id: key.id, revoked_at: key.revokedAt?.toISOString() },
        text: `Revoked API key ${key.id}.`,
      };
    },
  ),
  "telegram:invite": command(
    "--branch <id> --role <cashier|manager|admin>",
    { branch: { type: "string" }, role: { type: "string" } },
    z.object({ branch: positive("branch"), role }),
    async (em, args) => {
      const invite = await createInvite(em, args.branch, args.role);
      return {
        data: { code: invite.code, role: invite.role, expires_at: invite.expiresAt.toISOString() },
        text: [
          `One-time ${invite.role} invite for branch ${args.branch}, valid until ${invite.expiresAt.toISOString()}:`,
          "",
          `  /start ${invite.code}`,
          "",
          `Send that to the bot, or open https://t.me/<your bot>?start=${invite.code}`,
        ].join("\n"),
      };
    },
  ),
  "plan:set": command(
    "--business <id> --quota <monthly verifications>",
    { business: { type: "string" }, quota: { type: "string" } },
    z.object({ business: positive("business"), quota }),
    async (em, args) => {
      const business = await setPlan(em, args.business, args.quota);
      return {
        data: { id: business.id, monthly_quota: business.monthlyQuota },
        text: `Business ${business.id} now has a monthly quota of ${business.monthlyQuota}.`,
      };
    },
  ),
};

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(17)} ${c.summary}`);
  return `Usage: npm run admin -- <command> [options] [--json]\n\nCommands:\n${lines.join("\n")}\n`;
}
