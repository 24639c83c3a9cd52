import { bankName } from "../src/banks/catalogue.js";
import { BankUnavailableError, ReceiptFormatError } from "../src/banks/errors.js";
import { BadRequestError, QuotaExceededError, ValidationError } from "../src/errors.js";
import type { Logger } from "../src/logger.js";
import { OcrClosedError, OcrTimeoutError, UnreadableImageError } from "../src/receipts/ocr/index.js";
import { DownloadError, FileTooLargeError, UnsupportedFileError } from "./download.js";
import { TEXTS } from "./texts.js";

/**
 * The one place where a failure becomes what the cashier reads (HTML). Expected failures say what to do;
 * anything else is logged with its stack and answered with an apology, never silence.
 */
export function describeFailure(error: unknown, logger: Logger): string {
  if (error instanceof ValidationError || error instanceof BadRequestError) {
    return TEXTS.invalidInput(error.message);
  }
  if (error instanceof QuotaExceededError) return TEXTS.quotaReached;
  if (error instanceof BankUnavailableError) return TEXTS.bankDown(bankName(error.bank));
  if (error instanceof ReceiptFormatError) return TEXTS.bankGarbled(bankName(error.bank));
  if (error instanceof UnreadableImageError) return TEXTS.unreadablePhoto;
  if (error instanceof OcrTimeoutError || error instanceof OcrClosedError) return TEXTS.ocrTooSlow;
  if (error instanceof FileTooLargeError) return TEXTS.fileTooLarge;
  if (error instanceof UnsupportedFileError) return TEXTS.unsupportedFile;
  if (error instanceof DownloadError) return TEXTS.downloadFailed;
  logger.error({ err: error }, "bot update failed");
  return TEXTS.internalError;
}
