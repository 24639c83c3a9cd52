import { BANK_CODES } from "../../src/banks/codes.js";
import { createBankAdapters } from "../../src/banks/registry.js";
import { MAX_VARIANT_LOOKUPS, variantsOf } from "../../src/engine/misread.js";
import { parseReceiptUrl } from "../../src/engine/receipt-url.js";
import { createOcrEngine } from "../../src/receipts/ocr/index.js";
import { createQrReceiptReader } from "../../src/receipts/qr/read-qr.js";
import { createReceiptReader } from "../../src/receipts/reader.js";
import {
  type PhotoReading,
  readPhoto,
  scorePhotos,
  telegramImage,
} from "../../test/fixtures/photo-reading.js";
import {
  CONFUSABLE_CASES,
  PAGE_CASES,
  PHOTO_CASES,
  PHOTO_KINDS,
  type PhotoCase,
  TELEGRAM_LONG_SIDE,
  TOKEN_CASES,
} from "../../test/fixtures/photos/cases.js";
import type { BenchContext } from "../context.js";
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
 * counts in the set's goals; the time per photo is the rendered set's, the pages' recorded apart. Then every
 * set goes through POST /verify of a service that reads images (verifyAnswers): reading.photo.false_not_found.
 */
export async function photos(ctx: BenchContext): Promise<ScenarioResult> {
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
  const misread = misreadInLookups([...readings, ...pages, ...stress, ...tokens]);
  const answers = await verifyAnswers(ctx, [
    ...PHOTO_CASES,
    ...PAGE_CASES,
    ...CONFUSABLE_CASES,
    ...TOKEN_CASES,
  ]);
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
      recorded("reading.photo.page.date", 13, "page set: exact date and time", page.date, "%"),
      recorded("reading.photo.page.date_wrong", 13, "page set: wrong date", page.wrongDates, ""),
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
      recorded(
        "reading.photo.token.other_reference",
        13,
        "… read as the FT reference the same image prints",
        token.otherReference,
        "",
      ),
      recorded(
        "reading.photo.misread.reached",
        13,
        `misread references (${misread.misread}, every set) whose spelling is among the ≤ ${MAX_VARIANT_LOOKUPS} lookups after`,
        misread.reached,
        "",
      ),
      atMost(
        "reading.photo.false_not_found",
        13,
        `POST /verify of the photos (${answers.sent}): "not found" without read_from_image`,
        answers.falseNotFound,
        "",
        0,
      ),
    ],
    details: {
      score: all,
      page,
      confusable,
      token,
      latency: summarize(times),
      groups,
      verify: answers,
      misread,
    },
  };
}

/**
 * Of the references read wrong (a value, not a refusal), how many the engine's lookups after a "not found"
 * would ask for by their true spelling (engine/misread.ts variantsOf: the characters OCR weighed, then
 * look-alikes), for a bank that knows the receipt. The target is the one the engine builds (the claim's link,
 * else its reference), with a well-formed account where the bank needs one: the spellings tried do not
 * depend on it.
 */
function misreadInLookups(readings: readonly PhotoReading[]) {
  const adapters = createBankAdapters();
  const wrong = readings.filter((r) => r.reference === "wrong" && r.claim);
  const reached = wrong.filter(({ claim, case: c }) => {
    if (!claim) return false;
    const link = claim.shareUrl ? parseReceiptUrl(claim.shareUrl, adapters).link : null;
    const target = {
      transactionNumber: link?.transactionNumber ?? claim.transactionNumber,
      account: link?.accountNumber ?? claim.accountNumber ?? ANY_ACCOUNT,
      token: link?.token ?? null,
    };
    const adapter = adapters[claim.bank];
    return variantsOf(adapter, target, MAX_VARIANT_LOOKUPS, claim).some(
      (variant) => (variant.token ?? variant.transactionNumber) === c.expected.transaction_number,
    );
  });
  return { misread: wrong.length, reached: reached.length, ids: reached.map((r) => r.case.id) };
}

/** An account of the shape every bank that needs one accepts (CBE, BOA: digits). */
const ANY_ACCOUNT = "1000000000";

/**
 * Every set (rendered, pages, look-alike references, link tokens) sent to POST /api/v1/verify as an
 * integration sends a photo (the file alone, to a service with SERVER_OCR=true), against the simulator,
 * which knows almost none of these receipts. Each is a payment its bank would find, so every 404 is a "not found" for a genuine payment: it must say that the
 * reference was read from the image and may be misread (`read_from_image`, docs/api.md §2.2), or it counts
 * as a false one. Other answers (422 asking for an account or the bank) are counted by status.
 */
async function verifyAnswers(ctx: BenchContext, cases: readonly PhotoCase[]) {
  const service = await ctx.startService(1, "service-server-ocr", { SERVER_OCR: "true" });
  const statuses: Record<string, number> = {};
  let notFound = 0;
  let falseNotFound = 0;
  try {
    for (const c of cases) {
      const form = new FormData();
      const image = await telegramImage(c, TELEGRAM_LONG_SIDE);
      form.append("receipt_file", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), `${c.id}.jpg`);
      const response = await fetch(`${service.url}/api/v1/verify`, {
        method: "POST",
        headers: { authorization: `Bearer ${ctx.tenant.verifyBranch.key}` },
        body: form,
      });
      const body = (await response.json()) as { read_from_image?: unknown };
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status !== 404) continue;
      notFound++;
      if (body.read_from_image === undefined) falseNotFound++;
    }
  } finally {
    await service.stop();
  }
  return { sent: cases.length, statuses, notFound, falseNotFound };
}
