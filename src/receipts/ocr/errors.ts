/** Typed OCR failures, so the API and the bot can tell "send a better picture" from "try again later". */

/** The bytes are not a PNG, JPEG or WEBP we can decode, or the image is too large to decode safely. */
export class UnreadableImageError extends Error {
  override name = "UnreadableImageError";
  constructor(message = "The image could not be read.", options?: ErrorOptions) {
    super(message, options);
  }
}

/** Recognition did not finish within the per-image limit; the worker that ran it was replaced. */
export class OcrTimeoutError extends Error {
  override name = "OcrTimeoutError";
  constructor() {
    super("Reading the image took too long.");
  }
}

/** recognize() after close(): a programming error, not a user-facing one. */
export class OcrClosedError extends Error {
  override name = "OcrClosedError";
  constructor() {
    super("The OCR engine is closed.");
  }
}
