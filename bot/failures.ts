import { bankName } from "../src/banks/catalogue.js";
import { BankUnavailableError, ReceiptFormatError } from "../src/banks/errors.js";
import type { ReceiptReading } from "../src/banks/receipt-claim.js";
import { BadRequestError, QuotaExceededError, ValidationError } from "../src/errors.js";
import type { Logger } from "../src/logger.js";
import { OcrClosedError, OcrTimeoutError, UnreadableImageError } from "../src/receipts/ocr/index.js";
import { UnreferencedReceiptError } from "../src/receipts/unreferenced.js";
import { DownloadError, FileTooLargeError, UnsupportedFileError } from "./download.js";
import type { Texts } from "./i18n.js";

/**
 * The one place where a failure becomes what the cashier reads (HTML). Expected failures say what to do;
 * anything else is logged with its stack and answered with an apology, never silence.
 */
export function describeFailure(texts: Texts, error: unknown, logger: Logger): string {
  const { t } = texts;
  if (error instanceof UnreferencedReceiptError && error.statesTransfer) {
    return unreferencedReceipt(texts, error.reading);
  }
  if (error instanceof ValidationError || error instanceof BadRequestError) {
    return t("invalid-input", { message: error.message });
  }
  if (error instanceof QuotaExceededError) return t("quota-reached");
  if (error instanceof BankUnavailableError) return t("bank-down", { bank: bankName(error.bank) });
  if (error instanceof ReceiptFormatError) return t("bank-garbled", { bank: bankName(error.bank) });
  if (error instanceof UnreadableImageError) return t("unreadable-photo");
  if (error instanceof OcrTimeoutError || error instanceof OcrClosedError) return t("ocr-too-slow");
  if (error instanceof FileTooLargeError) return t("file-too-large");
  if (error instanceof UnsupportedFileError) return t("unsupported-file");
  if (error instanceof DownloadError) return t("download-failed");
  logger.error({ err: error }, "bot update failed");
  return t("internal-error");
}

/** A receipt that names no reference: what it does say, so the cashier sees it was read, and what to send. */
export function unreferencedReceipt(texts: Texts, reading: ReceiptReading): string {
  const { t } = texts;
  const { amount, currency, payerName, receiverName } = reading.receipt;
  const stated = [
    amount === undefined ? null : t("card-amount", { amount: texts.amount(amount, currency) }),
    payerName ? t("card-payer", { payer: payerName }) : null,
    receiverName ? t("card-receiver", { receiver: receiverName }) : null,
  ];
  return [t("receipt-without-reference", { bank: bankName(reading.bank) }), ...stated]
    .filter((line) => line !== null)
    .join("\n");
}
