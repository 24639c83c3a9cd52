import { z } from "zod";
import { BANK_CODES } from "../src/banks/codes.js";
import { RECEIPT_FIELDS } from "../src/db/verification-record.js";
import { OUTCOME_MESSAGES, SOURCE_TYPES, VERIFICATION_METHODS } from "../src/engine/types.js";
import { INVALID_DATA_MESSAGE } from "../src/errors.js";
import { RECEIPT_METHODS } from "../src/receipts/reader.js";

// Every response body of /api/v1, as zod schemas: the presenters return these types and the OpenAPI
// document (api/openapi) is generated from them, so the document describes what the routes send.

export const bankCodeSchema = z.enum(BANK_CODES).meta({
  id: "BankCode",
  description: "A bank or mobile-money provider (spec 2.1).",
  example: "telebirr",
});

const sourceTypeSchema = z.enum(SOURCE_TYPES).meta({
  description: "api: a live API key; test: a sandbox key; telegram: a cashier in the bot.",
});

const verificationMethodSchema = z.enum([...Object.values(VERIFICATION_METHODS), ...RECEIPT_METHODS]).meta({
  description:
    "official: bank + transaction_number looked up at the bank; official_link: a share link looked up; " +
    "receipt_pdf / receipt_text / receipt_image / receipt_ocr / receipt_qr: a receipt read first (PDF on the " +
    "server, the caller's text, an image with the caller's text, server OCR, the image's QR code), then " +
    "looked up at the bank.",
});

const isoDateTime = z.iso.datetime({ offset: true });

type ReceiptField = (typeof RECEIPT_FIELDS)[number];

/** transactionType → transaction_type */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** The contract's name (docs/api.md §2.3) of each receipt field of src/db/verification-record.ts's list. */
export const RECEIPT_KEYS = Object.fromEntries(
  RECEIPT_FIELDS.map((field) => [field, field.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`)]),
) as { readonly [F in ReceiptField]: SnakeCase<F> };

type ReceiptKey = (typeof RECEIPT_KEYS)[ReceiptField];

/** The receipt fields a history item shows (docs/api.md §2.4), in its order. */
export const HISTORY_RECEIPT_FIELDS = [
  "status",
  "transactionType",
  "amount",
  "currency",
  "payerName",
  "transactionDate",
] as const satisfies readonly ReceiptField[];

/**
 * Each receipt field as a found transaction has it (docs/api.md §2.3), in the contract's order: written once.
 * The receipt's own schema makes transaction_type optional and description nullable; history and parsed
 * receipts take them all nullable.
 */
const receiptFields = {
  status: z.string().meta({ description: '"completed" for a confirmed transfer.', example: "completed" }),
  transaction_type: z.string(),
  amount: z.number().meta({ description: "The transferred amount, without fees.", example: 1100 }),
  currency: z.string().meta({ example: "ETB" }),
  transaction_date: z.string().meta({
    description: "ISO 8601 date-time with an offset (+03:00) or a trailing Z, as the bank gives it.",
    example: "2026-11-20T10:15:00+03:00",
  }),
  payer_name: z.string(),
  payer_account: z.string().meta({ description: "As printed by the bank, masked forms included." }),
  receiver_name: z.string(),
  receiver_account: z.string(),
  description: z.string(),
} satisfies Record<ReceiptKey, z.ZodType>;

/** The same fields where each one may be missing (null). */
const nullableReceiptFields = nullableFields(receiptFields);

function nullableFields<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodNullable<S[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.nullable()])) as {
    [K in keyof S]: z.ZodNullable<S[K]>;
  };
}

/** The given receipt fields of a shape, by their contract names, in the order given. */
function receiptShapeOf<S extends Record<ReceiptKey, z.ZodType>, F extends ReceiptField>(
  shape: S,
  fields: readonly F[],
): { [K in F as SnakeCase<K>]: S[SnakeCase<K> & keyof S] } {
  return Object.fromEntries(fields.map((field) => [RECEIPT_KEYS[field], shape[RECEIPT_KEYS[field]]])) as {
    [K in F as SnakeCase<K>]: S[SnakeCase<K> & keyof S];
  };
}

/** Transaction details as the bank reports them (docs/api.md §2.3); fields the bank does not show are "". */
export const receiptSchema = z
  .object({
    ...receiptFields,
    transaction_type: receiptFields.transaction_type
      .optional()
      .meta({ description: "Absent when the bank shows none." }),
    description: receiptFields.description.nullable(),
  })
  .meta({ id: "Receipt" });

/**
 * POST /verify's answer (docs/api.md §2.2), for 200 and for the 404 of a transaction the bank does not know.
 */
export const verificationResultSchema = z
  .object({
    success: z.boolean().meta({ description: "The transaction is confirmed." }),
    exists: z.boolean().meta({ description: "The bank knows the transaction." }),
    duplicate: z.boolean().meta({ description: "It was already confirmed in this branch." }),
    message: z.string().nullable().meta({
      description: "null on success; why it failed otherwise.",
      example: OUTCOME_MESSAGES.not_found,
    }),
    data: z.object({
      bank: bankCodeSchema,
      bank_name: z.string(),
      verification_id: z
        .string()
        .nullable()
        .meta({ description: "The history record's id; null when the transaction was not found." }),
      transaction_number: z.string(),
      source_url: z.string().nullable().meta({ description: "The receipt link when the input was one." }),
      verification_method: verificationMethodSchema,
      receipt: z.union([receiptSchema, z.object({}).meta({ description: "Not found: no receipt." })]),
    }),
    existing_verification_id: z
      .number()
      .int()
      .optional()
      .meta({ description: "Only when duplicate is true: the record that confirmed it first." }),
    verified_at: isoDateTime
      .optional()
      .meta({ description: "Only when duplicate is true: when it was confirmed." }),
    paid_outside_saved_accounts: z
      .literal(true)
      .optional()
      .meta({
        description:
          "Birrcheck extension, not in the contract. Only on a confirmed result, when the branch saved receiving " +
          "accounts for this bank and the bank's receiver is none of them (the bot warns the cashier the same way).",
      }),
    read_from_image: z
      .object({
        transaction_number: z.string().meta({ description: "The reference (or link token) as read." }),
        ocr: z.enum(["server", "caller"]).meta({
          description:
            "Whose OCR read it: the server's (receipt_ocr) or the caller's text of the image (receipt_image).",
        }),
        may_be_misread: z.literal(true),
      })
      .optional()
      .meta({
        description:
          "Birrcheck extension, not in the contract. Only on a 404 whose reference was read from an image: the " +
          "bank does not know it as read, nor its likeliest misreadings, and it may still be misread. Ask for " +
          "the link, the SMS text or the typed reference.",
      }),
  })
  .meta({ id: "VerificationResult" });

/**
 * History item (docs/api.md §2.4); receipt fields are null on records of transactions that were not found.
 */
export const verificationRecordSchema = z
  .object({
    id: z.number().int(),
    bank: bankCodeSchema,
    bank_name: z.string(),
    transaction_number: z.string(),
    account_number: z.string().nullable().meta({ description: "The account the caller gave, else null." }),
    success: z.boolean(),
    exists: z.boolean(),
    ...receiptShapeOf(nullableReceiptFields, HISTORY_RECEIPT_FIELDS),
    created_at: isoDateTime,
    source: z.object({
      type: sourceTypeSchema,
      label: z.string().meta({ description: "The API key's label or the cashier's name." }),
    }),
  })
  .meta({ id: "VerificationRecord" });

/** Saved receiving account (docs/api.md §2.5). */
export const savedAccountSchema = z
  .object({
    id: z.number().int(),
    bank: bankCodeSchema,
    bank_name: z.string(),
    account_number: z.string().meta({ example: "1000123456789" }),
    account_last_four: z.string().meta({ example: "6789" }),
    label: z.string().meta({ example: "Main till" }),
    is_primary: z.boolean().meta({ description: "The default account for its bank." }),
  })
  .meta({ id: "SavedAccount" });

/** Bank catalogue entry (docs/api.md §2.6). */
export const bankEntrySchema = z
  .object({
    name: z.string(),
    requires_account_number: z.boolean(),
    account_digits: z
      .number()
      .int()
      .optional()
      .meta({ description: "How many trailing digits of account_number the bank's lookup uses." }),
    description: z.string(),
    example_transaction_number: z.string(),
  })
  .meta({ id: "BankEntry" });

export const banksBodySchema = z.object({ banks: z.record(bankCodeSchema, bankEntrySchema) });

/** POST /verify/parse-url's answer (docs/api.md §4.2). */
export const parsedUrlSchema = z
  .object({
    bank: bankCodeSchema,
    bank_name: z.string(),
    transaction_number: z.string(),
    account_number: z.string().nullable().meta({ description: "The account part the link carries, if any." }),
    source_url: z.string(),
    receipt_token: z
      .string()
      .nullable()
      .meta({ description: "The opaque token of token-style links (CBE, Awash, Zemen), else null." }),
    requires_account_number: z.boolean(),
    requires_explicit_settlement_account: z
      .boolean()
      .meta({ description: "The link lacks the receiving account: pass account_number to /verify." }),
  })
  .meta({ id: "ParsedUrl" });

/** POST /verify/parse-receipt's answer (docs/api.md §4.3): what the document claims, or null. */
export const parsedReceiptSchema = z
  .object({
    bank: bankCodeSchema,
    bank_name: z.string(),
    transaction_number: z.string().nullable(),
    account_number: z.string().nullable(),
    requires_account_number: z.boolean(),
    requires_explicit_settlement_account: z.boolean(),
    account_digits: z.number().int().nullable(),
    source_url: z.string().nullable().meta({
      description:
        "Birrcheck's addition: the bank's share link the receipt carries, null without one. Verify by it where the bank looks receipts up by link (Awash, Zemen, CBE's mobile receipts).",
    }),
    receipt: z.object({
      ...nullableReceiptFields,
      transaction_type: receiptFields.transaction_type.optional(),
    }),
  })
  .meta({ id: "ParsedReceipt" });

export const messageSchema = z.object({ message: z.string() }).meta({ id: "Message" });

export const validationErrorSchema = z
  .object({
    message: z.literal(INVALID_DATA_MESSAGE),
    errors: z.record(z.string(), z.array(z.string())).meta({
      description: "Each failing field with one message.",
      example: { label: ["The label field is required."] },
    }),
  })
  .meta({ id: "ValidationError" });

export const bulkDeletedSchema = z.object({
  message: z.string().meta({ example: "2 verifications deleted." }),
  deleted: z.number().int().meta({ description: "Records removed; unknown ids are skipped." }),
});
