import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Next } from "koa";
import { koaBody } from "koa-body";
import { BadRequestError, ValidationError } from "../../src/errors.js";
import type { ApiContext } from "../context.js";

export const MAX_RECEIPT_FILE_BYTES = 10 * 1024 * 1024;
const TOO_LARGE = "The receipt file may not be greater than 10240 kilobytes.";

/** Where uploads are streamed, one folder per process, so tests can see that nothing stays behind. */
export const UPLOAD_DIR = path.join(tmpdir(), "birrcheck-uploads", String(process.pid));
mkdirSync(UPLOAD_DIR, { recursive: true });

/**
 * formidable streams files to disk and stops at the limit: an upload is never held in memory whole. Each
 * request gets its own folder, removed with everything in it when the request ends, including the parts
 * of a file formidable had written before it refused the upload.
 */
function parserFor(uploadDir: string) {
  return koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      maxFileSize: MAX_RECEIPT_FILE_BYTES,
      maxTotalFileSize: MAX_RECEIPT_FILE_BYTES,
      maxFiles: 1,
      maxFields: 20,
      // receipt_text may be 50,000 characters of Amharic: up to 3 bytes each.
      maxFieldsSize: 200 * 1024,
      allowEmptyFiles: false,
      uploadDir,
    },
  });
}

/** formidable's error codes (FormidableError.js) that a client causes, as the contract's answers. */
function translate(error: unknown): Error {
  const code = (error as { code?: number }).code;
  switch (code) {
    case 1009:
    case 1016:
      return ValidationError.field("receipt_file", TOO_LARGE);
    case 1015:
      return ValidationError.field("receipt_file", "Only one receipt file may be uploaded.");
    case 1010:
      return ValidationError.field("receipt_file", "The receipt file must not be empty.");
    case 1006:
      return ValidationError.field(
        "receipt_text",
        "The receipt text may not be greater than 50000 characters.",
      );
    case 1007:
      return new BadRequestError("The form has too many fields.");
    default:
      return new BadRequestError("The multipart body is malformed.");
  }
}

/**
 * Parses multipart/form-data into a folder of this request's own, removed once the request is done,
 * whatever happened. Files under any name other than `receipt_file` are refused.
 */
export async function multipartBody(ctx: ApiContext, next: Next): Promise<void> {
  const dir = await mkdtemp(path.join(UPLOAD_DIR, "request-"));
  try {
    try {
      await parserFor(dir)(ctx, async () => undefined);
    } catch (error) {
      throw translate(error);
    }
    const names = Object.keys(ctx.request.files ?? {}).filter((name) => name !== "receipt_file");
    if (names.length > 0) {
      throw new ValidationError(
        Object.fromEntries(
          names.map((name) => [name, [`The ${name.replaceAll("_", " ")} field is prohibited.`]]),
        ),
      );
    }
    await next();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The uploaded receipt_file on disk, if one was sent. */
export function uploadedReceipt(ctx: ApiContext): { path: string } | undefined {
  const entry = ctx.request.files?.receipt_file;
  const file = Array.isArray(entry) ? entry[0] : entry;
  return file ? { path: file.filepath } : undefined;
}
