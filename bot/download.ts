import { createWriteStream } from "node:fs";
import { copyFile, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GrammyError } from "grammy";
import { request } from "undici";
import type { BotContext } from "./context.js";

/** Receipts larger than this are refused before and while downloading. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;

export class FileTooLargeError extends Error {
  override name = "FileTooLargeError";
}
export class UnsupportedFileError extends Error {
  override name = "UnsupportedFileError";
}
export class DownloadError extends Error {
  override name = "DownloadError";
}

/**
 * Downloads the message's file into a fresh temporary folder, runs `use` on its path and removes the folder,
 * whatever happens. The URL comes from @grammyjs/files (a path on disk with a local Bot API server); the
 * bytes are streamed here with a size cap, because the plugin's own download has none, resolves a 404
 * with an empty file and speaks only https.
 */
export async function withDownloadedFile<T>(
  ctx: BotContext,
  declaredSize: number | undefined,
  use: (file: string) => Promise<T>,
): Promise<T> {
  if (declaredSize !== undefined && declaredSize > MAX_FILE_BYTES) throw new FileTooLargeError();
  const file = await ctx.getFile().catch((error: unknown) => {
    // Telegram refuses getFile above 20 MB with "file is too big".
    if (error instanceof GrammyError && /too big/i.test(error.description)) throw new FileTooLargeError();
    throw new DownloadError("getFile failed", { cause: error });
  });
  if (file.file_size !== undefined && file.file_size > MAX_FILE_BYTES) throw new FileTooLargeError();
  const dir = await mkdtemp(path.join(os.tmpdir(), "birrcheck-bot-"));
  try {
    const target = path.join(dir, "receipt");
    await fetchTo(file.getUrl(), target);
    return await use(target);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function fetchTo(source: string, target: string): Promise<void> {
  if (path.isAbsolute(source)) {
    // A local Bot API server (--local) hands out paths on its own disk.
    if ((await stat(source)).size > MAX_FILE_BYTES) throw new FileTooLargeError();
    await copyFile(source, target);
    return;
  }
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(source, {
      headersTimeout: DOWNLOAD_TIMEOUT_MS,
      bodyTimeout: DOWNLOAD_TIMEOUT_MS,
    });
  } catch (error) {
    throw new DownloadError("file download failed", { cause: error });
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new DownloadError(`file download answered ${response.statusCode}`);
  }
  let received = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > MAX_FILE_BYTES ? new FileTooLargeError() : null, chunk);
    },
  });
  try {
    await pipeline(response.body, cap, createWriteStream(target));
  } catch (error) {
    if (error instanceof FileTooLargeError) throw error;
    throw new DownloadError("file download broke off", { cause: error });
  }
  if (received === 0) throw new DownloadError("the downloaded file is empty");
}
