/**
 * What OCR most likely misread in a reference it read: characters that look alike in a receipt's fonts.
 * A shape repair (text.ts repairReference) already settled every position where only a digit or only a
 * letter may stand; these are the positions where both may.
 */
const LOOK_ALIKES: Record<string, readonly string[]> = {
  O: ["0"],
  "0": ["O"],
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

/**
 * The reference with one look-alike character swapped, most likely first: a letter among digits was more
 * likely a digit, and a digit among letters a letter. At most `limit`.
 */
export function confusableVariants(reference: string, limit: number): string[] {
  const scored: { variant: string; score: number }[] = [];
  for (let i = 0; i < reference.length; i++) {
    const ch = reference[i] ?? "";
    for (const swap of LOOK_ALIKES[ch] ?? []) {
      const neighbours = [reference[i - 1], reference[i + 1]].filter((c): c is string => c !== undefined);
      const fits = neighbours.filter((c) => /\d/.test(c) === /\d/.test(swap)).length;
      // References are mostly digits: between equals, a digit is the likelier reading.
      const score = fits + (/\d/.test(swap) ? 0.5 : 0);
      scored.push({ variant: reference.slice(0, i) + swap + reference.slice(i + 1), score });
    }
  }
  // Stable: among equals, earlier positions and the more common look-alike (listed first) come first.
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((entry) => entry.variant);
}
