import type { Receipt } from "../banks/types.js";
import { receiverMatches, showsReceiverAccount } from "./account-match.js";

/**
 * Where an uploaded receipt disagrees with the bank's record: "amount", "payer name", "receiver".
 * The bank decides what happened; a document that says otherwise is doctored or misread, and never passes.
 * `lenient` (OCR text) tolerates a few misread letters in names, never a different amount.
 */
export function documentMismatches(claimed: Partial<Receipt>, bank: Receipt, lenient: boolean): string[] {
  const mismatches: string[] = [];
  if (claimed.amount !== undefined && Math.abs(claimed.amount - bank.amount) >= 0.005)
    mismatches.push("amount");
  if (!sameName(claimed.payerName, bank.payerName, lenient)) mismatches.push("payer name");
  const receiverName = sameName(claimed.receiverName, bank.receiverName, lenient);
  const receiverAccount =
    !claimed.receiverAccount ||
    !showsReceiverAccount(claimed.receiverAccount) ||
    !showsReceiverAccount(bank.receiverAccount) ||
    receiverMatches(claimed.receiverAccount, bank.receiverAccount) ||
    receiverMatches(bank.receiverAccount, claimed.receiverAccount);
  if (!receiverName || !receiverAccount) mismatches.push("receiver");
  return mismatches;
}

/** "amount" → "The receipt does not match the bank's record: amount differs." */
export function mismatchMessage(mismatches: readonly string[]): string {
  const list =
    mismatches.length > 1
      ? `${mismatches.slice(0, -1).join(", ")} and ${mismatches.at(-1)}`
      : (mismatches[0] ?? "");
  return `The receipt does not match the bank's record: ${list} ${mismatches.length > 1 ? "differ" : "differs"}.`;
}

// --- internal helpers ---

/** Names compare without case, spacing or punctuation; a masked name ("ABEBE K***") only by what it shows. */
function sameName(claimed: string | undefined, actual: string, lenient: boolean): boolean {
  if (!claimed?.trim() || !actual.trim()) return true;
  // A document may name fewer of a person's names ("Dear Selamawit", a column cut after two names) but not
  // other ones: the shorter name's words must open the longer one.
  if (namesOpen(claimed, actual) || namesOpen(actual, claimed)) return true;
  const a = comparable(claimed);
  const b = comparable(actual);
  const masked = a.masked || b.masked;
  const left = a.visible;
  const right = b.visible;
  if (masked) {
    const length = Math.min(left.length, right.length);
    return distance(left.slice(0, length), right.slice(0, length)) <= (lenient ? 1 : 0);
  }
  const allowed = lenient ? Math.max(1, Math.floor(Math.max(left.length, right.length) * 0.15)) : 0;
  return distance(left, right) <= allowed;
}

function namesOpen(shorter: string, longer: string): boolean {
  const words = (name: string) =>
    name
      .toLowerCase()
      .normalize("NFKC")
      .match(/\p{L}+/gu) ?? [];
  const head = words(shorter);
  const full = words(longer);
  return head.length > 0 && head.length < full.length && head.every((word, i) => word === full[i]);
}

function comparable(name: string): { visible: string; masked: boolean } {
  const lower = name.toLowerCase().normalize("NFKC");
  const star = lower.search(/[*•]/);
  const visible = (star === -1 ? lower : lower.slice(0, star)).replace(/[^\p{L}]/gu, "");
  return { visible, masked: star !== -1 };
}

/** Levenshtein distance; names are short. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
