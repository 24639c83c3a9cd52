import { z } from "zod";
import { BANK_CODES } from "../../src/banks/codes.js";
import { PERIODS } from "../../src/history/verifications.js";

/** Text stored in history must be storable: PostgreSQL text refuses NUL, and no name has control characters. */
export const PRINTABLE = /^\P{Cc}*$/u;

/** Account numbers are digits; people paste them with spaces and dashes, which are dropped. */
const accountNumber = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ""))
  .pipe(z.string().min(1).max(34).regex(/^\d+$/));

const label = z.string().trim().min(1).max(100).regex(PRINTABLE, { error: "The label format is invalid." });

export const createAccountSchema = z.object({
  bank: z.enum(BANK_CODES),
  account_number: accountNumber.meta({
    description: "Digits, at most 34; spaces and dashes are dropped.",
    example: "1000123456789",
  }),
  label: label.meta({ description: "1 to 100 characters.", example: "Main till" }),
  is_primary: z
    .boolean()
    .default(false)
    .meta({ description: "Make it the default for its bank (clears the flag on the others)." }),
});

export const updateAccountSchema = z.strictObject({
  label: label.optional(),
  is_primary: z.boolean().optional(),
});

/** Query strings arrive as text: integers and booleans are read the way Laravel's rules read them. */
const queryInteger = z
  .string()
  .refine((value) => /^\s*-?\d+\s*$/.test(value), { error: "The limit must be an integer." })
  .transform(Number);

const queryLimit = queryInteger.pipe(z.number().int().min(1).max(500));

const queryBoolean = z.string().refine((value) => ["true", "false", "1", "0"].includes(value), {
  error: "The success field must be true or false.",
});

export const historyQuerySchema = z.object({
  limit: queryLimit.optional().meta({
    override: { type: "integer", minimum: 1, maximum: 500, default: 100 },
    description: "Most records.",
  }),
  period: z
    .enum(PERIODS)
    .optional()
    .meta({ description: "7d, 15d, 30d count days; 3m, 6m, 12m count calendar months back from now." }),
  success: queryBoolean
    .transform((value) => value === "true" || value === "1")
    .optional()
    .meta({
      override: { type: "boolean" },
      description: "true: confirmed only; false: failed only (1/0 too).",
    }),
});

export const EXPORT_FORMATS = ["csv"] as const;

/** GET /verifications/export: GET /verifications's filters, a format, and no cap on the rows. */
export const exportQuerySchema = z.object({
  // A refinement, not an enum: an empty format= is "invalid" too, not "required" (absent means csv).
  format: z
    .string()
    .refine((value) => (EXPORT_FORMATS as readonly string[]).includes(value), {
      error: "The selected format is invalid.",
    })
    .optional()
    .meta({
      override: { type: "string", enum: [...EXPORT_FORMATS], default: "csv" },
      description: "csv only.",
    }),
  period: historyQuerySchema.shape.period,
  success: historyQuerySchema.shape.success,
  limit: queryInteger
    .pipe(z.number().int().min(1))
    .optional()
    .meta({
      override: { type: "integer", minimum: 1 },
      description: "Most records, newest first; every record when absent.",
    }),
});

export const bulkDeleteSchema = z.object({
  ids: z
    .array(z.number().int().positive())
    .min(1)
    .max(100)
    .meta({ example: [12, 13] }),
});
