import { BANK_CODES } from "../../src/banks/codes.js";
import { createOcrEngine } from "../../src/receipts/ocr/index.js";
import { createQrReceiptReader } from "../../src/receipts/qr/read-qr.js";
import { createReceiptReader } from "../../src/receipts/reader.js";
import { type PhotoReading, readPhoto, scorePhotos } from "../../test/fixtures/photo-reading.js";
import {
  CONFUSABLE_CASES,
  PAGE_CASES,
  PHOTO_CASES,
  PHOTO_KINDS,
  TELEGRAM_LONG_SIDE,
  TOKEN_CASES,
} from "../../test/fixtures/photos/cases.js";
import { atLeast, atMost, recorded, type ScenarioResult } from "../figures.js";
import { median, round, summarize } from "../stats.js";

/**
 * 13. Reading photos: the independent rendered set of test/fixtures/photos (every bank; clean
 * screenshots, phone photos, SMS screenshots) at Telegram's largest photo size, read the way the bot and
 * the API read an upload, with one OCR worker. Exact reference and amount over the set, no wrong value, and
 * the time per photo. The set's stress variant (every letter-or-digit position of a reference an OCR
 * look-alike: 0/O, 1/I, 8/B, 5/S) is recorded beside it, and so is its token set: CBE SMS and screens whose
 * v2 link token (20 mixed-case characters) is the reference, blurred, tilted or photographed off a screen.
 * The page set (CBE PDF pages photographed small, telebirr's page after "Select all", telebirr's app screen)
 * counts in the set's goals; the time per photo is the rendered set's, the pages' recorded apart.
 */
export async function photos(): Promise<ScenarioResult> {
  const ocr = createOcrEngine({ poolSize: 1 });
  const reader = createReceiptReader({ ocr, qr: createQrReceiptReader() });
  const readings: PhotoReading[] = [];
  const stress: PhotoReading[] = [];
  const tokens: PhotoReading[] = [];
  const pages: PhotoReading[] = [];
  try {
    // The first image also starts the OCR worker (model load, WASM compile): read once, not measured.
    const [first] = PHOTO_CASES;
    if (first) await readPhoto(reader, first, TELEGRAM_LONG_SIDE);
    for (const c of PHOTO_CASES) readings.push(await readPhoto(reader, c, TELEGRAM_LONG_SIDE));
    for (const c of CONFUSABLE_CASES) stress.push(await readPhoto(reader, c, TELEGRAM_LONG_SIDE));
    for (const c of TOKEN_CASES) tokens.push(await readPhoto(reader, c, TELEGRAM_LONG_SIDE));
    for (const c of PAGE_CASES) pages.push(await readPhoto(reader, c, TELEGRAM_LONG_SIDE));
  } finally {
    await ocr.close();
  }
  const all = scorePhotos([...readings, ...pages]);
  const page = scorePhotos(pages);
  const confusable = scorePhotos(stress);
  const token = scorePhotos(tokens);
  const groups = BANK_CODES.flatMap((bank) =>
    PHOTO_KINDS.map((kind) => ({
      bank,
      kind,
      ...scorePhotos(readings.filter((r) => r.case.bank === bank && r.case.kind === kind)),
    })),
  );
  console.log(
    ["bank      kind        images  ref %  amount %  wrong"]
      .concat(
        groups.map((g) =>
          [
            g.bank.padEnd(9),
            g.kind.padEnd(11),
            String(g.images).padStart(6),
            String(g.reference).padStart(6),
            String(g.amount).padStart(9),
            String(g.wrong).padStart(6),
          ].join(" "),
        ),
      )
      .join("\n"),
  );
  const times = readings.map((r) => r.ms);
  return {
    figures: [
      atLeast(
        "reading.photo.reference",
        13,
        `photos with the exact reference (${all.images}, pages included)`,
        all.reference,
        "%",
        95,
      ),
      atLeast("reading.photo.amount", 13, "photos with the exact amount", all.amount, "%", 95),
      atMost("reading.photo.wrong", 13, "photos with a wrong reference or amount", all.wrong, "", 0),
      atMost(
        "reading.photo.median",
        13,
        "Telegram-size photo → fields, median (1 worker)",
        round(median(times), 0),
        "ms",
        800,
      ),
      recorded(
        "reading.photo.p90",
        13,
        "Telegram-size photo → fields, p90",
        round(summarize(times).p90, 0),
        "ms",
      ),
      recorded(
        "reading.photo.page.reference",
        13,
        `page set: exact reference (${page.images})`,
        page.reference,
        "%",
      ),
      recorded("reading.photo.page.amount", 13, "page set: exact amount", page.amount, "%"),
      recorded("reading.photo.page.wrong", 13, "page set: wrong reference or amount", page.wrong, ""),
      recorded(
        "reading.photo.page.median",
        13,
        "page set: photo → fields, median",
        round(median(pages.map((r) => r.ms)), 0),
        "ms",
      ),
      recorded(
        "reading.photo.confusable.reference",
        13,
        "look-alike stress set: exact reference",
        confusable.reference,
        "%",
      ),
      recorded(
        "reading.photo.confusable.amount",
        13,
        "look-alike stress set: exact amount",
        confusable.amount,
        "%",
      ),
      recorded(
        "reading.photo.token.reference",
        13,
        `mixed-case link tokens: exact reference (${token.images})`,
        token.reference,
        "%",
      ),
      recorded("reading.photo.token.wrong", 13, "… with a wrong reference or amount", token.wrong, ""),
    ],
    details: { score: all, page, confusable, token, latency: summarize(times), groups },
  };
}
