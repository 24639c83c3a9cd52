import type { Receipt } from "../banks/types.js";
import { compactReceipt, ocrAccount } from "./receipt-lines.js";

// The shapes a receipt's values take. A value of another shape was read from the wrong place (the next
// label, a date's year, a heading) and is dropped: a wrong value is worse than none.

const LABEL_WORDS =
  /\b(?:account|number|no\.(?!\w)|amount|status|completed|successful|phone|party|reference|transaction|date|name|holder|ETB|birr)(?!\w)/i;

/** A person's or business's name: letters and name punctuation, no label words, no figures. */
export function nameOf(value: string | undefined): string | undefined {
  const name = value
    // OCR's marks before a name ("~ hanna tesfaye"), never figures: "2519…/WALLET" is no name.
    ?.replace(/^[\s~|•·»«>*_=:-]+/, "")
    .replace(/[\s,;:|~•-]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!name || !/^[A-Za-z][A-Za-z .'&/()-]{1,60}$/.test(name) || LABEL_WORDS.test(name)) return undefined;
  return name;
}

/**
 * An account or phone as printed: digits with mask characters, optionally "+" first and a "/BANK" or
 * "/WALLET" kind after (Awash, M-Pesa); at least three characters and two digits ("2*23", CBE's "6171").
 */
export function accountOf(value: string | undefined): string | undefined {
  const account = ocrAccount(value?.trim().split(/\s+(?=[A-Za-z(])/)[0]);
  return account && isAccount(account) ? account : undefined;
}

function isAccount(value: string): boolean {
  // OCR's look-alike letters may stand in a printed account; the bank's reader decides whether to repair.
  return /^\+?[0-9*xX•#][0-9OoIl|*xX•#-]{2,}(?:\/[A-Z]+)?$/.test(value) && /\d.*\d/.test(value);
}

/** A printed status in the vocabulary of results: every word for "it went through" is "completed". */
export function statusOf(value: string | undefined): string | undefined {
  const word = value?.trim().toLowerCase();
  if (!word) return undefined;
  if (/^(?:not|un)/.test(word)) return /fail|success/.test(word) ? "failed" : undefined;
  if (/^(?:completed?|success(?:ful(?:ly)?)?|succeeded|paid|approved|done|posted)\b/.test(word))
    return "completed";
  // T24 record states (INAU: input, not authorised) are printed as they are: a transfer not yet through.
  return /^(pending|failed|reversed|cancell?ed|declined|rejected|inau|inao|ihld|rnau|rnao)\b/.exec(word)?.[1];
}

/** The fields the receipt states, less every name, account and status that has no such shape. */
export function plausibleReceipt(receipt: Partial<Receipt>): Partial<Receipt> {
  const out = compactReceipt(receipt);
  for (const key of ["payerName", "receiverName"] as const) {
    if (out[key] === undefined) continue;
    const name = nameOf(out[key]);
    if (name === undefined) delete out[key];
    else out[key] = name;
  }
  for (const key of ["payerAccount", "receiverAccount"] as const) {
    const account = out[key];
    if (account !== undefined && !isAccount(account.trim())) delete out[key];
  }
  if (out.status !== undefined) {
    const status = statusOf(out.status);
    if (status === undefined) delete out.status;
    else out.status = status;
  }
  return out;
}
