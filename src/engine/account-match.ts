import { visibleDigits } from "../reading/parse-utils.js";

/**
 * Whether the account the caller expects to be credited can be the receiver the bank printed. Banks mask
 * accounts ("1****1685", "2519****4025"), and callers may give only the last digits, so only the digits
 * both sides show are compared: the tail always, the head when the caller gave a full number. A number is
 * taken as full only when it is at least as long as the printed form (masks rarely keep the real length:
 * CBE prints 13-digit accounts as "1****1685"), so CBE's last 8 digits are a suffix, not a full number.
 */
export function receiverMatches(expected: string, printed: string): boolean {
  const given = expected.replace(/\D/g, "");
  const shown = visibleDigits(printed);
  const tail = shown.tail.replace(/\D/g, "");
  if (!given || !tail) return true;
  if (!shown.masked) return given.endsWith(tail) || tail.endsWith(given);
  const tailMatches = given.length >= tail.length ? given.endsWith(tail) : tail.endsWith(given);
  const printedLength = printed.replace(/[^\d*xX•]/g, "").length;
  const fullNumber = given.length >= Math.max(shown.head.length + tail.length + 2, printedLength);
  return tailMatches && (!fullNumber || given.startsWith(shown.head));
}

/** Whether the bank's answer shows any digits of the receiving account at all. */
export function showsReceiverAccount(printed: string): boolean {
  return /\d{3,}/.test(printed.replace(/[*xX•\s-]/g, ""));
}

/**
 * Whether a confirmed payment went somewhere other than the branch's saved accounts for its bank. False
 * when the branch saved none for that bank, or the bank shows no receiving account to compare.
 */
export function paidOutsideSavedAccounts(saved: readonly string[], receiverAccount: string): boolean {
  if (saved.length === 0 || !showsReceiverAccount(receiverAccount)) return false;
  return !saved.some((account) => receiverMatches(account, receiverAccount));
}
