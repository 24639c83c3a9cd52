import { defineEntity, type InferEntity } from "@mikro-orm/core";

export const BusinessSchema = defineEntity({
  name: "Business",
  tableName: "businesses",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    name: p.string().length(200),
    plan: p.string().length(50).default("free"),
    monthlyQuota: p.integer(),
    createdAt: p.datetime().defaultRaw("now()"),
  }),
});

export type Business = InferEntity<typeof BusinessSchema>;
