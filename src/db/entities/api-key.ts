import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { ROLES } from "../roles.js";
import { BranchSchema } from "./branch.js";

export const ApiKeySchema = defineEntity({
  name: "ApiKey",
  tableName: "api_keys",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    branch: p.manyToOne(BranchSchema).deleteRule("cascade"),
    role: p.enum([...ROLES]),
    label: p.string().length(100),
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    keyHash: p.string().length(64).unique(),
    /** The first characters, shown in listings so people can tell keys apart. */
    prefix: p.string().length(16),
    /** Sandbox key: lookups go to the bank simulator and use no quota. */
    test: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw("now()"),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  }),
});

export type ApiKey = InferEntity<typeof ApiKeySchema>;
