import type { ReferenceAlternative } from "../banks/receipt-claim.js";

/**
 * What OCR most likely misread in a reference it read: characters that look alike in a receipt's fonts.
 * A shape repair (text.ts repairReference) already settled every position where only a digit or only a
 * letter may stand; these are the positions where both may.
 */
const LOOK_ALIKES: Record<string, readonly string[]> = {
  O: ["0"],
  "0": ["O", "o"],
  D: ["0"],
  Q: ["0"],
  B: ["8"],
  "8": ["B"],
  I: ["1", "l"],
  l: ["1", "I"],
  "1": ["I", "l"],
  S: ["5"],
  "5": ["S"],
  Z: ["2"],
  "2": ["Z"],
  G: ["6"],
  "6": ["G"],
};

/** Whether OCR takes one character for the other (O for 0, 8 for B…). */
export function lookAlike(a: string, b: string): boolean {
  return (LOOK_ALIKES[a] ?? []).includes(b);
}

/**
 * What a blurred glyph OCR was unsure of may also have been: a soft 8 reads as S, a 9 or 6 whose tail ran
 * into its bowl as O or 0, and a thin letter that OCR read as a mark is a J or an l by its foot's shape
 * (ocr/thin-letters.ts), which a blurred foot can mislead. Only tried where OCR marked the glyph as unsure;
 * a sharp S is not an 8.
 */
const BLURRED: Record<string, readonly string[]> = {
  S: ["8"],
  "8": ["S"],
  O: ["9", "6"],
  "0": ["9", "6"],
  J: ["l", "I"],
  l: ["J"],
};

/**
 * Letters whose case OCR mixes up: those whose small and capital forms differ only in size, and k and j,
 * whose capitals differ by where the arm or the stroke starts (ocr/glyph-shapes.ts caseByShape).
 */
const CASE_MIXED = new Set([..."cosuvwxzkj"]);

/**
 * Whether two spellings of a reference differ only by characters OCR takes for one another; `blurred`
 * also counts a blurred glyph's look-alikes (S and 8), for spellings the glyphs' own shapes gave.
 */
export function sameButLookAlikes(a: string, b: string, blurred = false): boolean {
  if (a.length !== b.length || a === b) return false;
  return [...a].every((ch, at) => {
    const other = b[at] ?? "";
    const sameShape = CASE_MIXED.has(ch.toLowerCase()) && ch.toLowerCase() === other.toLowerCase();
    const soft = blurred && (BLURRED[ch] ?? []).includes(other);
    return ch === other || sameShape || soft || (LOOK_ALIKES[ch] ?? []).includes(other);
  });
}

/** How much less likely two misread characters are than one, in the score's units (see scoreOf). */
const PAIR_PENALTY = 1.5;

interface Swap {
  at: number;
  to: string;
}

/**
 * The reference with one or two look-alike characters swapped, most likely first: a letter among digits
 * was more likely a digit, and a digit among letters a letter; two swaps together rank below a likely single
 * one. A small l or o is a candidate only in a reference that has lower case (a case-sensitive token). At
 * most `limit`. Where OCR marked glyphs as unsure (`unsure`: positions in the reference), variants that
 * swap only those come first, blurred look-alikes included.
 */
export function confusableVariants(
  reference: string,
  limit: number,
  unsure: readonly number[] = [],
): string[] {
  const mixedCase = /[a-z]/.test(reference);
  const swapsAt = (positions: (at: number) => boolean, blurred: boolean): Swap[] =>
    [...reference].flatMap((ch, at) =>
      positions(at)
        ? [...(LOOK_ALIKES[ch] ?? []), ...(blurred ? (BLURRED[ch] ?? []) : [])]
            .filter((to) => mixedCase || to === to.toUpperCase())
            .map((to) => ({ at, to }))
        : [],
    );
  const unsureSwaps = swapsAt((at) => unsure.includes(at), true);
  const everySwap = swapsAt(() => true, false);
  const ranked = [...rankedVariants(reference, unsureSwaps), ...rankedVariants(reference, everySwap)];
  return [...new Set(ranked)].slice(0, limit);
}

/**
 * The reference with one or two of the characters OCR itself weighed swapped in (`alternatives`, ocr/
 * alternatives.ts), closest to its own choice first: what its model, rather than a table, says the glyphs
 * more likely were. At most `limit`.
 */
export function alternativeVariants(
  reference: string,
  alternatives: readonly ReferenceAlternative[],
  limit: number,
): string[] {
  const swaps = alternatives
    .filter(({ text }) => /^[A-Za-z0-9]$/.test(text))
    .map(({ at, text, margin }) => ({ at, to: text, margin }));
  const ranked = swaps.map((swap) => ({ variant: applied(reference, [swap]), margin: swap.margin }));
  for (const [n, a] of swaps.entries()) {
    for (const b of swaps.slice(n + 1)) {
      if (a.at !== b.at) ranked.push({ variant: applied(reference, [a, b]), margin: a.margin + b.margin });
    }
  }
  const variants = ranked.sort((x, y) => x.margin - y.margin).map((entry) => entry.variant);
  return [...new Set(variants)].slice(0, limit);
}

/** Every variant one or two of `swaps` make, most likely first. */
function rankedVariants(reference: string, swaps: readonly Swap[]): string[] {
  const ranked: { variant: string; score: number }[] = swaps.map((swap) => ({
    variant: applied(reference, [swap]),
    score: scoreOf(reference, swap),
  }));
  for (const [n, a] of swaps.entries()) {
    for (const b of swaps.slice(n + 1)) {
      if (a.at === b.at) continue;
      // Each swap judged beside the other: after 5 for S, the 0 next to it stays a digit.
      const score =
        Math.max(
          scoreOf(reference, a) + scoreOf(applied(reference, [a]), b),
          scoreOf(reference, b) + scoreOf(applied(reference, [b]), a),
        ) - PAIR_PENALTY;
      ranked.push({ variant: applied(reference, [a, b]), score });
    }
  }
  // Stable: among equals, single swaps, earlier positions and the commoner look-alike (listed first) first.
  return ranked.sort((x, y) => y.score - x.score).map((entry) => entry.variant);
}

/** How well a swap fits its neighbours (0–2), and half a point for a digit: references are mostly digits. */
function scoreOf(reference: string, { at, to }: Swap): number {
  const neighbours = [reference[at - 1], reference[at + 1]].filter(
    (c): c is string => c !== undefined && /[A-Za-z0-9]/.test(c),
  );
  const fits = neighbours.filter((c) => /\d/.test(c) === /\d/.test(to)).length;
  return fits + (/\d/.test(to) ? 0.5 : 0);
}

function applied(reference: string, swaps: readonly Swap[]): string {
  const chars = [...reference];
  for (const { at, to } of swaps) chars[at] = to;
  return chars.join("");
}
