import { BANK_CODES, type BankCode } from "../banks/codes.js";
import { RECEIPT_PARSERS } from "../banks/receipt-parsers.js";
import { cleanLines, namesIssuer } from "../reading/receipt-lines.js";

export type Detection =
  | { kind: "detected"; bank: BankCode }
  /** Only a reference shape that several banks share (a bare FT number), or a real tie. */
  | { kind: "ambiguous"; candidates: BankCode[] }
  | { kind: "unknown" };

/** A score at or below this is a reference shape only: never enough to pick a bank alone. */
const SHAPE_ONLY = 1;
/**
 * A text that is one word is a reference and nothing else: a shape with a hint in it (a telebirr service
 * prefix) is still only a shape, and every bank whose shape fits is named.
 */
const BARE_SHAPE = 2;
/** Naming the bank as the issuer weighs like a distinctive label, less than its host or TIN. */
const ISSUER_NAMED = 4;

/**
 * Which bank a receipt text belongs to, by a vote over each bank's evidence: its own reader's strongest
 * sign (host, TIN, name, distinctive labels, reference shape), plus the bank's name printed as the issuer
 * (not as the other side of a transfer), which settles texts where two banks' signs are equally strong
 * (a Zemen receipt whose reference has Dashen's layout). The bank is asked for on a real tie, and for a
 * bare reference whose shape several banks share: a guessed bank is no answer.
 */
export function detectBank(text: string): Detection {
  const lines = cleanLines(text);
  const scores = BANK_CODES.map((bank) => {
    const parser = RECEIPT_PARSERS[bank];
    const own = parser.detect(text);
    const named = own > 0 && namesIssuer(lines, parser.issuer) ? ISSUER_NAMED : 0;
    return { bank, own, score: own + named };
  });
  const top = Math.max(...scores.map((s) => s.score));
  if (top <= 0) return { kind: "unknown" };
  const bare = /^\s*\S+\s*$/.test(text);
  const shapeOnly = bare ? BARE_SHAPE : SHAPE_ONLY;
  const leaders = scores.filter((s) => (top <= shapeOnly ? s.score > 0 : s.score === top));
  // A bare reference whose shape only one bank has is that bank's (an Awash 15-digit id); a shape inside
  // a longer text may be something else there (an account number), so the bank is asked for.
  if (leaders.length > 1 || (top <= shapeOnly && !bare)) {
    return { kind: "ambiguous", candidates: leaders.map((s) => s.bank) };
  }
  return { kind: "detected", bank: (leaders[0] as { bank: BankCode }).bank };
}
