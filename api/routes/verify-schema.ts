import { z } from "zod";
import { BANK_CODES } from "../../src/banks/codes.js";
import type { AccountChoice, VerifyInput } from "../../src/engine/types.js";
import { BadRequestError, ValidationError } from "../../src/errors.js";
import { parseInput } from "../validation.js";

export const MAX_RECEIPT_TEXT = 50_000;

/** Field types and sizes of a POST /verify body (JSON); which fields go together is checked after. */
const verifyBodySchema = z.object({
  bank: z.string().trim().optional(),
  transaction_number: z.string().trim().max(100).optional(),
  account_number: z.string().trim().max(64).optional(),
  bank_account_id: z.number().int().positive().optional(),
  receipt_url: z.string().trim().max(2048).optional(),
  receipt_text: z.string().max(MAX_RECEIPT_TEXT).optional(),
});

type VerifyBody = z.output<typeof verifyBodySchema>;

/** The input methods of spec §4.1, by the field that selects each; exactly one per call. */
const METHOD_FIELDS = ["transaction_number", "receipt_url", "receipt_file", "receipt_text"] as const;

const label = (field: string) => field.replaceAll("_", " ");

/**
 * Reads a POST /verify body into one engine input. An unsupported bank is a 400 (spec §4.1); missing or
 * conflicting fields are 422s that name the fields involved.
 */
export function parseVerifyBody(raw: Record<string, unknown>): VerifyInput {
  const body = parseInput(verifyBodySchema, dropEmpty(raw));
  if (body.bank !== undefined && !(BANK_CODES as readonly string[]).includes(body.bank)) {
    throw new BadRequestError("The selected bank is invalid.");
  }
  const present = METHOD_FIELDS.filter((field) => body[field as keyof VerifyBody] !== undefined);
  const account = accountChoice(body);

  if (present.length > 1) {
    const [first, ...others] = present;
    throw new ValidationError(
      Object.fromEntries(
        others.map((field) => [
          field,
          [`The ${label(field)} field prohibits ${label(first ?? "")} from being present.`],
        ]),
      ),
    );
  }
  if (present.length === 0) {
    const others = "receipt url / receipt file / receipt text";
    throw new ValidationError({
      ...(body.bank ? {} : { bank: [`The bank field is required when none of ${others} are present.`] }),
      transaction_number: [`The transaction number field is required when none of ${others} are present.`],
    });
  }
  if (body.receipt_url !== undefined) {
    return { kind: "url", receiptUrl: body.receipt_url, ...account };
  }
  if (body.receipt_text !== undefined) {
    throw ValidationError.field("receipt_text", "Verification by receipt text is not available yet.");
  }
  if (!body.bank)
    throw ValidationError.field("bank", "The bank field is required when transaction number is present.");
  return {
    kind: "reference",
    bank: body.bank as (typeof BANK_CODES)[number],
    transactionNumber: body.transaction_number ?? "",
    ...account,
  };
}

function accountChoice(body: VerifyBody): AccountChoice {
  if (body.account_number !== undefined && body.bank_account_id !== undefined) {
    throw ValidationError.field(
      "bank_account_id",
      "The bank account id field prohibits account number from being present.",
    );
  }
  return {
    ...(body.account_number !== undefined ? { accountNumber: body.account_number } : {}),
    ...(body.bank_account_id !== undefined ? { bankAccountId: body.bank_account_id } : {}),
  };
}

/** Empty strings and nulls count as absent, as Laravel's ConvertEmptyStringsToNull makes them. */
function dropEmpty(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(raw).filter(
      ([, value]) => value !== null && !(typeof value === "string" && value.trim() === ""),
    ),
  );
}

export const parseUrlBodySchema = z.object({ receipt_url: z.string().trim().min(1).max(2048) });
