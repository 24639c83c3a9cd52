import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { Receipt } from "../banks/types.js";
import { amountAddsUp, amountAsPageSays } from "../reading/amount-adds-up.js";
import { lookAlike, sameButLookAlikes } from "../reading/confusables.js";
import type { CodeConfidence, GlyphReading } from "./ocr/glyphs.js";

/**
 * The claim without the values OCR was unsure of. A misread amount or name is worse than none: shown by
 * parse-receipt it is a wrong answer, held against the bank's record it refuses a genuine payment. The bank
 * still answers for the transaction; only the document's word on that value is dropped.
 */
export function withoutDoubtful(
  claim: ReceiptClaim,
  doubtful: readonly string[],
  text: string,
): ReceiptClaim {
  if (doubtful.length === 0) return claim;
  const numbers = new Set(doubtful.map(digitsOf).filter(Boolean));
  const amounts = new Set(doubtful.map(amountOf));
  const words = new Set(doubtful.flatMap(lettersOf));
  const receipt: Partial<Receipt> = { ...claim.receipt };
  const { amount } = receipt;
  // An unsure amount that the page's fees and total add up to is vouched for by figures read apart.
  if (amount !== undefined && amounts.has(amount) && !amountAddsUp(text, amount)) delete receipt.amount;
  for (const key of ["payerName", "receiverName"] as const) {
    const value = receipt[key];
    if (value && lettersOf(value).some((word) => words.has(word))) delete receipt[key];
  }
  for (const key of ["payerAccount", "receiverAccount"] as const) {
    const value = receipt[key];
    if (value && numbers.has(digitsOf(value))) delete receipt[key];
  }
  return { ...claim, receipt };
}

/**
 * The claim with the amount its page's figures agree on (amountAsPageSays): a transfer OCR misread with
 * confidence, mended by the total, the fees and the amount in words.
 */
export function withPageArithmetic(claim: ReceiptClaim, text: string): ReceiptClaim {
  const { amount } = claim.receipt;
  if (amount === undefined) return claim;
  const agreed = amountAsPageSays(text, amount);
  return agreed === amount ? claim : { ...claim, receipt: { ...claim.receipt, amount: agreed } };
}

/**
 * The reference as OCR read it with confidence. A receipt may print its reference twice (an SMS's "Your
 * transaction number is X" and the link that carries X); when the spelling taken stands in a word OCR
 * doubted and another word it did not doubt spells the same reference but for look-alikes, that spelling is
 * taken, as the bank's reader reads it (`reread`, so the shape's repairs still hold).
 */
export function withConfidentReference(
  claim: ReceiptClaim,
  text: string,
  doubtful: readonly string[],
  reread: (word: string) => string | null,
): ReceiptClaim {
  const taken = claim.transactionNumber;
  const doubted = (word: string) => doubtful.some((d) => d.toUpperCase().includes(word.toUpperCase()));
  if (!doubted(taken)) return claim;
  for (const word of text.match(/[A-Za-z0-9-]+/g) ?? []) {
    if (word.length !== taken.length || doubted(word)) continue;
    const reference = reread(word);
    if (!reference || !sameButLookAlikes(taken, reference)) continue;
    return {
      ...claim,
      transactionNumber: reference,
      shareUrl: claim.shareUrl?.replace(taken, reference) ?? null,
    };
  }
  return claim;
}

/**
 * The reference as the widths of its glyphs read it (ocr/glyphs.ts): the text read again by the bank's
 * reader with every code spelled as its widths read it, taken when it names the same reference but for
 * look-alikes (so a link, a label and the shape's repairs all still apply).
 */
export function withGlyphReference(
  claim: ReceiptClaim,
  text: string,
  glyphs: readonly GlyphReading[],
  reread: (text: string) => string | null,
): ReceiptClaim {
  let widths = text;
  for (const { read, glyphs: byWidth } of glyphs) widths = widths.split(read).join(byWidth);
  if (widths === text) return claim;
  const reference = reread(widths);
  return reference && sameButLookAlikes(claim.transactionNumber, reference, true)
    ? withReference(claim, reference)
    : claim;
}

/**
 * A reference the bank's format refuses, read with one glyph twice: OCR drew one O as "O0" (G11O0BTS…).
 * Each look-alike pair side by side is read again without one of its two characters (by the bank's reader,
 * so the shape's repairs hold); taken when exactly one reference the bank accepts comes out.
 */
export function withoutDoubledGlyph(
  claim: ReceiptClaim,
  reread: (text: string) => string | null,
  accepts: (reference: string) => boolean,
): ReceiptClaim {
  const taken = claim.transactionNumber;
  if (accepts(taken)) return claim;
  const readings = new Set<string>();
  for (let at = 0; at + 1 < taken.length; at++) {
    const [a = "", b = ""] = [taken[at], taken[at + 1]];
    if (!lookAlike(a, b)) continue;
    for (const dropped of [at, at + 1]) {
      const reference = reread(taken.slice(0, dropped) + taken.slice(dropped + 1));
      if (reference && accepts(reference)) readings.add(reference);
    }
  }
  const [only] = readings;
  return readings.size === 1 && only ? withReference(claim, only) : claim;
}

/**
 * Below this a glyph of a code is one OCR was unsure of. Measured on the photo set: its one misread glyph
 * with no look-alike by width (M-Pesa's RXWKE8R1I0 read with S for 8) at 91, the rest of the code at 97–99.
 */
const UNSURE_GLYPH = 93;

/**
 * The claim with what OCR doubted in its reference, where it read it: the positions whose glyphs it was unsure
 * of, and the other characters it weighed at each position (ocr/alternatives.ts).
 */
export function withUnsureGlyphs(claim: ReceiptClaim, codes: readonly CodeConfidence[]): ReceiptClaim {
  const reference = claim.transactionNumber;
  for (const { read, confidences, choices } of codes) {
    const offset = offsetIn(read, reference);
    if (offset === null) continue;
    const positions = Array.from(reference, (_, at) => at).filter(
      (at) => at + offset >= 0 && at + offset < read.length,
    );
    const unsure = positions.filter((at) => (confidences[at + offset] ?? 100) < UNSURE_GLYPH);
    const alternatives = positions.flatMap((at) =>
      (choices[at + offset] ?? [])
        .filter((choice) => choice.text !== reference[at])
        .map((choice) => ({ at, text: choice.text, margin: choice.margin })),
    );
    if (unsure.length === 0 && alternatives.length === 0) return claim;
    return {
      ...claim,
      ...(unsure.length > 0 && { unsure }),
      ...(alternatives.length > 0 && { alternatives }),
    };
  }
  return claim;
}

/**
 * Where a code's text spells the reference (the index in `read` of the reference's first character, but for
 * case and look-alikes): the reference inside the code (a link's path), or the code the part of the reference
 * after a dash, which tesseract may read as a word apart (a CBE token's "v2-").
 */
function offsetIn(read: string, reference: string): number | null {
  const alike = (seen: string, part: string) =>
    seen.toUpperCase() === part.toUpperCase() || sameButLookAlikes(seen, part, true);
  for (let offset = 0; offset + reference.length <= read.length; offset++) {
    if (alike(read.slice(offset, offset + reference.length), reference)) return offset;
  }
  const from = reference.length - read.length;
  return from > 0 && reference[from - 1] === "-" && alike(read, reference.slice(from)) ? -from : null;
}

function withReference(claim: ReceiptClaim, reference: string): ReceiptClaim {
  const shareUrl = claim.shareUrl?.replace(claim.transactionNumber, reference) ?? null;
  return { ...claim, transactionNumber: reference, shareUrl };
}

// --- internal helpers ---

/** The digits of a word as OCR read it ("ETB1,500.00" → "150000"). */
function digitsOf(text: string): string {
  return text.replace(/\D/g, "");
}

/** Letter words of at least two letters, lower-cased. */
function lettersOf(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}{2,}/gu) ?? []) as string[];
}

/** The amount a word shows, currency and thousands separators aside ("ETB1,500.00" → 1500). */
function amountOf(text: string): number {
  const figure = text.replace(/[^\d.,]/g, "").replace(/,/g, "");
  return figure ? Number(figure) : Number.NaN;
}
