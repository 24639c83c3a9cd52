import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Composer, InputFile } from "grammy";
import { addisDay } from "../../src/addis-time.js";
import type { Period } from "../../src/history/verifications.js";
import { type BotContext, type BotDependencies, isMember } from "../context.js";
import { textsOf } from "../i18n.js";
import { allowedManager } from "./manager.js";

const EXPORT_PERIODS = ["7d", "30d", "3m", "12m"] as const satisfies readonly Period[];
const DEFAULT_PERIOD = "30d";
// Telegram takes documents up to 50 MB from bots; a larger export is the API's job.
const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

/**
 * /export [7d|30d|3m|12m] (managers): the branch's history as the API's CSV export (src/history/export.ts),
 * sent as a document. The CSV is streamed from the database into a temporary file (memory stays flat),
 * then uploaded; the file is removed whatever happens.
 */
export function exportCommand(deps: BotDependencies): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.filter(isMember).command("export", async (ctx) => {
    if (!(await allowedManager(ctx))) return;
    const { t } = textsOf(ctx);
    const choice = ctx.match.trim().toLowerCase() || DEFAULT_PERIOD;
    const period = EXPORT_PERIODS.find((known) => known === choice);
    if (!period) {
      await ctx.reply(t("export-usage"));
      return;
    }
    await ctx.replyWithChatAction("upload_document").catch(() => undefined);
    const { branchId, branchName } = ctx.member;
    const dir = await mkdtemp(path.join(os.tmpdir(), "birrcheck-export-"));
    try {
      const file = path.join(dir, "export.csv");
      const records = recordCounter(MAX_DOCUMENT_BYTES);
      try {
        await pipeline(
          Readable.from(deps.services.history.export(branchId, { period })),
          records,
          createWriteStream(file),
        );
      } catch (error) {
        if (!(error instanceof TooLargeForTelegram)) throw error;
        await ctx.reply(t("export-too-large"));
        return;
      }
      if (records.count() === 0) {
        await ctx.reply(t("export-empty"));
        return;
      }
      const name = `verifications-${slug(branchName)}-${period}-${addisDay(new Date())}.csv`;
      await ctx.replyWithDocument(new InputFile(file, name), {
        caption: t("export-caption", { branch: branchName, period, n: records.count() }),
      });
      deps.logger.info({ branchId, period, rows: records.count() }, "history exported to telegram");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  return composer;
}

export class TooLargeForTelegram extends Error {
  override name = "TooLargeForTelegram";
}

/**
 * Passes CSV text through and counts its records after the header (failing once it passes `maxBytes`): line ends outside quotes (a quoted
 * field may hold line breaks; a doubled quote inside one toggles twice and changes nothing).
 */
export function recordCounter(maxBytes: number): Transform & { count(): number } {
  let lines = 0;
  let bytes = 0;
  let quoted = false;
  const counter = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const text = String(chunk);
      bytes += Buffer.byteLength(text);
      // Stops the export as soon as it cannot be sent, instead of writing the rest first.
      if (bytes > maxBytes) {
        done(new TooLargeForTelegram());
        return;
      }
      for (let i = 0; i < text.length; i += 1) {
        const char = text.charCodeAt(i);
        if (char === 34) quoted = !quoted;
        else if (char === 10 && !quoted) lines += 1;
      }
      done(null, chunk);
    },
  });
  return Object.assign(counter, { count: () => Math.max(0, lines - 1) });
}

/** A branch name as a file-name part: letters (any script) and digits, dashes between. */
function slug(name: string): string {
  return (
    name
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "") || "branch"
  );
}
