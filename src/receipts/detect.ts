import { BANK_CODES, type BankCode } from "../banks/codes.js";
import { RECEIPT_PARSERS } from "./parsers/index.js";

export type Detection =
  | { kind: "detected"; bank: BankCode }
  /** Only a reference shape that several banks share (a bare FT number), or a tie. */
  | { kind: "ambiguous"; candidates: BankCode[] }
  | { kind: "unknown" };

/** A score at or below this is a reference shape only: never enough to pick a bank alone. */
const SHAPE_ONLY = 1;

/** Which bank a receipt text belongs to, from each parser's own evidence (labels, hosts, TINs, shapes). */
export function detectBank(text: string): Detection {
  const scores = BANK_CODES.map((bank) => ({ bank, score: RECEIPT_PARSERS[bank].detect(text) }));
  const top = Math.max(...scores.map((s) => s.score));
  if (top <= 0) return { kind: "unknown" };
  const leaders = scores.filter((s) => s.score === top).map((s) => s.bank);
  if (top <= SHAPE_ONLY || leaders.length > 1) return { kind: "ambiguous", candidates: leaders };
  return { kind: "detected", bank: leaders[0] as BankCode };
}
