/**
 * The verification input's fields as the contract spells them (docs/api.md §4.1). Field-level failures name
 * them (the API's 422 `errors`, the bot's questions), so the engine says which input is wrong in the same
 * words everywhere; they are written here once.
 */
export const INPUT_FIELDS = {
  bank: "bank",
  transactionNumber: "transaction_number",
  accountNumber: "account_number",
  bankAccountId: "bank_account_id",
  receiptUrl: "receipt_url",
  receiptFile: "receipt_file",
  receiptText: "receipt_text",
} as const;

export type InputField = (typeof INPUT_FIELDS)[keyof typeof INPUT_FIELDS];
