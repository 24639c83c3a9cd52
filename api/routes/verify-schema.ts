import { z } from "zod";
import { BANK_CODES, type BankCode, isBankCode } from "../../src/banks/codes.js";
import type { AccountChoice } from "../../src/engine/types.js";
import { BadRequestError, ValidationError } from "../../src/errors.js";
import type { ReceiptDocument } from "../../src/receipts/reader.js";
import { parseInput } from "../validation.js";
import { PRINTABLE } from "./schemas.js";

export const MAX_RECEIPT_TEXT = 50_000;

/** Multipart fields arrive as text: an integer field may be "12" (Laravel's integer rule accepts that too). */
const integer = z.preprocess(
  (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number().int().positive(),
);

/** A bank code, read as text: an unknown one is a 400 "The selected bank is invalid." (docs/api.md §4.1). */
const bankHint = z
  .string()
  .trim()
  .meta({ override: { enum: [...BANK_CODES] }, description: "A bank code (GET /banks)." });

export const verifyBodySchema = z.object({
  bank: bankHint
    .optional()
    .meta({ description: "Required with transaction_number; an optional hint with a receipt file or text." }),
  transaction_number: z.string().trim().max(100).optional().meta({
    description: "The bank's reference (GET /banks shows each bank's form).",
    example: "DFH51OFIED",
  }),
  account_number: z
    .string()
    .trim()
    .max(64)
    .regex(PRINTABLE, { error: "The account number format is invalid." })
    .optional()
    .meta({
      description:
        "The receiving account you expect the money in; required for cbe and boa; for cbebirr the payer's phone (251XXXXXXXXX).",
    }),
  bank_account_id: integer
    .optional()
    .meta({ description: "A saved account's id (GET /accounts), instead of account_number." }),
  receipt_url: z.string().trim().max(2048).optional().meta({
    description: "A share link from a banking app; bank and transaction number are read from it.",
    example: "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
  }),
  receipt_text: z
    .string()
    .max(MAX_RECEIPT_TEXT)
    .optional()
    .meta({ description: "A receipt's text (copied, or OCR'd from an image sent as receipt_file)." }),
});

type VerifyBody = z.output<typeof verifyBodySchema>;

/** A POST /verify request: one of the four input methods of spec §4.1, plus the account the caller expects. */
export type VerifyRequest =
  | ({ kind: "reference"; bank: BankCode; transactionNumber: string } & AccountChoice)
  | ({ kind: "url"; receiptUrl: string } & AccountChoice)
  | ({ kind: "document"; document: ReceiptDocument } & AccountChoice);

/** The input methods by the field that selects each; exactly one per call. */
const METHOD_FIELDS = ["transaction_number", "receipt_url", "receipt_file", "receipt_text"] as const;
const OTHERS = "receipt url / receipt file / receipt text";
const label = (field: string) => field.replaceAll("_", " ");

/**
 * Reads a POST /verify body (JSON, or multipart with `file`) into one request. An unsupported bank is a
 * 400 (spec §4.1); missing or conflicting fields are 422s naming the fields involved. With a receipt file
 * or text, `bank` is an optional hint.
 */
export function parseVerifyBody(raw: Record<string, unknown>, file?: { path: string }): VerifyRequest {
  const body = parseInput(verifyBodySchema, dropEmpty(raw));
  const bank = bankOf(body.bank);
  const account = accountChoice(body);
  const present = METHOD_FIELDS.filter(
    (field) => (field === "receipt_file" ? file : body[field]) !== undefined,
  );

  const conflict = receiptTextWithPdfOrImage(present);
  if (present.length > 1 && !conflict) {
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
    throw new ValidationError({
      ...(bank ? {} : { bank: [`The bank field is required when none of ${OTHERS} are present.`] }),
      transaction_number: [`The transaction number field is required when none of ${OTHERS} are present.`],
    });
  }
  if (body.receipt_url !== undefined) return { kind: "url", receiptUrl: body.receipt_url, ...account };
  if (file || body.receipt_text !== undefined) {
    return { kind: "document", document: { file, text: body.receipt_text, bank }, ...account };
  }
  if (!bank)
    throw ValidationError.field("bank", "The bank field is required when transaction number is present.");
  return { kind: "reference", bank, transactionNumber: body.transaction_number ?? "", ...account };
}

export const parseReceiptBodySchema = verifyBodySchema.pick({ bank: true, receipt_text: true });

/** POST /verify/parse-receipt: a receipt file, its text, or both (an image's text), and a bank hint. */
export function parseReceiptBody(raw: Record<string, unknown>, file?: { path: string }): ReceiptDocument {
  const body = parseInput(parseReceiptBodySchema, dropEmpty(raw));
  if (!file && body.receipt_text === undefined) {
    throw new ValidationError({
      receipt_file: ["The receipt file field is required when receipt text is not present."],
      receipt_text: ["The receipt text field is required when receipt file is not present."],
    });
  }
  return { file, text: body.receipt_text, bank: bankOf(body.bank) };
}

// --- internal helpers ---

/** receipt_text beside receipt_file is the image's OCR text (spec §4.1), not a second method. */
function receiptTextWithPdfOrImage(present: readonly string[]): boolean {
  return present.length === 2 && present.includes("receipt_file") && present.includes("receipt_text");
}

function bankOf(value: string | undefined): BankCode | undefined {
  if (value === undefined) return undefined;
  if (!isBankCode(value)) throw new BadRequestError("The selected bank is invalid.");
  return value;
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

export const parseUrlBodySchema = z.object({
  receipt_url: z.string().trim().min(1).max(2048).meta({
    description: "A share link from a banking app.",
    example: "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
  }),
});
