import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { BusinessSchema } from "./business.js";

/** Verifications a business used in one calendar month of Addis Ababa ("2026-11"). */
export const QuotaUsageSchema = defineEntity({
  name: "QuotaUsage",
  tableName: "quota_usage",
  properties: (p) => ({
    business: p.manyToOne(BusinessSchema).primary().deleteRule("cascade"),
    month: p.string().length(7).primary(),
    count: p.integer().default(0),
  }),
  primaryKeys: ["business", "month"],
});

export type QuotaUsage = InferEntity<typeof QuotaUsageSchema>;
