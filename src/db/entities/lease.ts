import { defineEntity, type InferEntity } from "@mikro-orm/core";

/**
 * A lock that outlives no transaction, for deployments behind a transaction-mode pooler where session
 * locks do not hold (src/db/lease.ts): held by `holder` until `expiresAt`, which the holder keeps renewing.
 */
export const LeaseSchema = defineEntity({
  name: "Lease",
  tableName: "leases",
  properties: (p) => ({
    name: p.string().primary(),
    /** The holding process's random id. */
    holder: p.string(),
    expiresAt: p.datetime(),
  }),
});

export type Lease = InferEntity<typeof LeaseSchema>;
