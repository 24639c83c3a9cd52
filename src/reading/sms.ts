import type { Receipt } from "../banks/types.js";
import { FEE_WORDS } from "./fee-words.js";
import { parseAmount } from "./parse-utils.js";
import { repairFigures } from "./receipt-lines.js";
import { type DayOrder, readDate } from "./t24.js";

// One reader for the few shapes Ethiopian bank and wallet SMS take (docs/banks.md §2), as a small grammar:
// a direction verb (debited, credited, paid, sent, received, transferred, withdrawn, or the noun "transfer
// of"), an amount with its currency before or after it, the other side after "to", "from", "for", "in
// favour of" or a "Beneficiary:" label, "on DATE at TIME", fee lines after the amount, and "Dear NAME" for
// the phone's owner; a third party who "has transferred ETB X to your account" is the payer. Banks differ
// only in the date order they print.

export interface SmsOptions {
  /** How the bank writes numeric dates (telebirr 17/06/2026, M-Pesa 24/7/26: day first). */
  dayOrder?: DayOrder;
  /** The T24 reference, when known: it breaks ties between day-first and month-first dates. */
  reference?: string | null;
  /** The bank's debit figure is known to hold the fees listed after it (BankReceiptParser.debitHoldsFees). */
  debitHoldsFees?: boolean;
}

type Direction = "debit" | "credit";

const FIGURE = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)`;
/** An amount with its currency before ("ETB 50.00", "ETB50", "Br 20") or after ("2.00 Birr", "100 ETB"). */
const AMOUNT = String.raw`(?:(?:ETB|Birr|Br\.?)\s*${FIGURE}|${FIGURE}\s*(?:ETB|Birr|Br)\b)`;
/** A masked or plain account or phone: digits with mask characters, 4 or more characters. */
/** A bank or wallet named before an account ("CBE ", "Commercial Bank of Ethiopia ", "telebirr "), if any. */
const INSTITUTION = String.raw`(?:(?:(?:[A-Za-z.&-]+\s+){0,4}?(?:Bank|Ethiopia)|CBE(?:\s*Birr)?|tele\s?birr|M-?PESA|e-?birr|Awash|Dashen|Abyssinia|BOA|Zemen|Siinqee|Amhara|Coop|Wegagen|Nib|Hibret|Abay|Berhan|Enat|Bunna|Ahadu)\s+)?`;
const ACCOUNT = String.raw`(\+?[0-9][0-9*xX•#.-]{2,}[0-9*xX•#]|[*xX•]{2,}[0-9]{2,})`;

interface Movement {
  direction: Direction;
  amount: number;
  /** Where the amount ends in the flat text: the other side and the date follow it. */
  end: number;
  /** The owner's own account, when the sentence names it ("your account 1**23 has been debited"). */
  ownAccount?: string;
  /** True when the figure is the whole debit, fees included ("debited with ETB 100.48"). */
  includesFees: boolean;
  /** The other side, when the sentence names it before the amount ("Transfer to NAME of ETB X"). */
  otherName?: string;
}

/** A name as SMS print it: up to six words of letters, before the words that follow it. */
const NAME = String.raw`([A-Za-z][A-Za-z.'&-]*(?:\s+[A-Za-z][A-Za-z.'&-]*){0,5}?)`;
/** The same, starting with a capital: the subject of a sentence ("Abebe Kebede has transferred …"). */
const SUBJECT = String.raw`([A-Z][A-Za-z.'&-]*(?:\s+[A-Za-z][A-Za-z.'&-]*){0,5}?)`;

const MOVEMENTS: readonly { pattern: RegExp; read(m: RegExpExecArray): Omit<Movement, "end"> | null }[] = [
  {
    // "your account 1000****1234 has been debited with ETB 100.48", "a/c 2*23 was credited with ETB 5"
    pattern: new RegExp(
      String.raw`\b(?:account|a\/c|acct\.?)\s*(?:no\.?|number)?\s*:?\s*${ACCOUNT}\s+(?:has\s+been|was|is|have\s+been)\s+(debited|credited)\s+(?:with|by|for)\s+${AMOUNT}`,
      "i",
    ),
    read: (m) => moved(m[2], m[3] ?? m[4], m[1], true),
  },
  {
    // "ETB 2,425 has been credited to your account …", "ETB 20,000.00 debited from NAME for …"
    pattern: new RegExp(
      String.raw`${AMOUNT}\s+(?:has\s+been\s+|was\s+|is\s+)?(debited|credited|deposited|transferred|sent|paid|withdrawn)\s+(?=to\b|from\b|by\b|into\b|on\b|for\b)`,
      "i",
    ),
    // A debit figure may hold fees ("ETB 2,511.50 has been debited from your account … Service Charge …").
    read: (m) => moved(m[3], m[1] ?? m[2], undefined, /^debited$/i.test(m[3] ?? "")),
  },
  {
    // "Credit alert of ETB 3,000.00", "Debit alert: ETB 500.00"
    pattern: new RegExp(String.raw`\b(credit|debit)\s+alert\s*(?:of|:)?\s*${AMOUNT}`, "i"),
    read: (m) =>
      moved(m[1]?.toLowerCase() === "credit" ? "credited" : "debited", m[2] ?? m[3], undefined, false),
  },
  {
    // "has been debited with ETB 200.00", "debited with ETB 100.48" (no account named)
    pattern: new RegExp(String.raw`\b(debited|credited)\s+(?:with|by|for)\s+${AMOUNT}`, "i"),
    read: (m) => moved(m[1], m[2] ?? m[3], undefined, true),
  },
  {
    // "You have (successfully) transferred / sent / paid / received ETB 60.00", "received 500.00 Birr"
    pattern: new RegExp(
      String.raw`\b(?:you\s+have\s+(?:successfully\s+)?|you\s+|I\s+|have\s+|has\s+)(transferred|sent|paid|received|bought|deposited|withdrawn|withdrew)\s+(?:you\s+|me\s+)?(?:an?\s+amount\s+of\s+)?${AMOUNT}`,
      "i",
    ),
    read: (m) => moved(m[1], m[2] ?? m[3], undefined, false),
  },
  {
    // "you have sent to NAME an amount of ETB 44,574.00"
    pattern: new RegExp(
      String.raw`\byou\s+have\s+(?:successfully\s+)?(transferred|sent|paid)\s+to\s+${NAME}\s+(?:an?\s+amount\s+of\s+)?${AMOUNT}`,
      "i",
    ),
    read: (m) => named(moved(m[1], m[3] ?? m[4], undefined, false), m[2]),
  },
  {
    // "Transfer to NAME of ETB 2,050.00 was successful", "transfer of ETB 500.00 to NAME"
    pattern: new RegExp(String.raw`\btransfer\s+(?:to\s+${NAME}\s+)?of\s+${AMOUNT}`, "i"),
    read: (m) => named(moved("transferred", m[2] ?? m[3], undefined, false), m[1]),
  },
  {
    // "Abebe Kebede has transferred ETB 8,031.00 to your account": money in, from the sentence's subject.
    pattern: new RegExp(
      String.raw`\b${SUBJECT}\s+has\s+(?:successfully\s+)?(?:transferred|sent|paid|deposited)\s+${AMOUNT}\s+(?:to|into)\s+your\b`,
    ),
    read: (m) => named(moved("credited", m[2] ?? m[3], undefined, false), m[1]),
  },
];

/** The movement with the other side its sentence named, when that is a name. */
function named(movement: Omit<Movement, "end"> | null, name: string | undefined) {
  // "Dear Customer Abebe Kebede has transferred …": the greeting is not the subject.
  const otherName = cleanName(name?.replace(/^dear\s+(?:valued\s+)?(?:customer|client)\s+/i, ""));
  return movement && otherName && !NOT_A_NAME.test(otherName) && !/^(?:you|i|we)$/i.test(otherName)
    ? { ...movement, otherName }
    : movement;
}

function moved(
  verb: string | undefined,
  figure: string | undefined,
  ownAccount: string | undefined,
  debitFigure: boolean,
): Omit<Movement, "end"> | null {
  const amount = parseAmount(figure ?? "");
  if (amount === null || !verb) return null;
  const direction: Direction = /^(?:credited|received|deposited)$/i.test(verb) ? "credit" : "debit";
  return {
    direction,
    amount,
    ...(ownAccount ? { ownAccount } : {}),
    includesFees: debitFigure && direction === "debit",
  };
}

/** Fees listed after a debit (FEE_WORDS) with their figure. */
const FEE = new RegExp(String.raw`\b(?:${FEE_WORDS})\b\s*(?:of|is|:|=|amount)?\s*${AMOUNT}`, "gi");
/** "(15%)", "15%", "5 %": a rate, never an amount. */
const RATE = /\(?\s*\d+(?:\.\d+)?\s*%\s*\)?/g;

/** What an SMS (or an app's success message) says, or {} when it reports no movement of money. */
export function readSms(text: string, options: SmsOptions = {}): Partial<Receipt> {
  const flat = flatten(text);
  const movement = firstMovement(flat);
  if (!movement) return {};
  const after = flat.slice(movement.end);
  // The CBE app's modal names the payer's account holder: "ETB X debited from NAME for NAME-ETB-6171".
  const debitedFrom = /^\s*from\s+(?!your\b|account\b)(.+?)\s+for\s/i.exec(after)?.[1];
  const owner = (movement.direction === "debit" ? cleanName(debitedFrom) : undefined) ?? ownerName(flat);
  const said = counterparty(after, movement.direction);
  const labelled = labelledOtherSide(flat, movement.direction);
  const other = {
    name: said.name ?? movement.otherName ?? labelled.name,
    account: said.account ?? labelled.account,
  };
  const ownAccount = movement.ownAccount ?? ownAccountIn(flat, movement.direction);
  const receipt: Partial<Receipt> = {
    status: "completed",
    // The CBE app's modal states the transfer and lists its fees apart, as CBE's SMS does ("transferred
    // ETB50.00 … Service charge of ETB 0.50", docs/banks.md §2.1): only other debit figures may hold fees.
    amount:
      movement.includesFees && !debitedFrom ? lessFees(movement.amount, after, options) : movement.amount,
    currency: "ETB",
  };
  const date = dateIn(after, options) ?? dateIn(flat, options);
  if (date) receipt.transactionDate = date;
  const [ownName, ownAcc, otherName, otherAcc] =
    movement.direction === "debit"
      ? (["payerName", "payerAccount", "receiverName", "receiverAccount"] as const)
      : (["receiverName", "receiverAccount", "payerName", "payerAccount"] as const);
  if (owner) receipt[ownName] = owner;
  if (ownAccount) receipt[ownAcc] = ownAccount;
  if (other.name) receipt[otherName] = other.name;
  if (other.account) receipt[otherAcc] = other.account;
  return receipt;
}

/** One line, links out (their digits are no amounts), OCR's letters inside figures turned into digits. */
function flatten(text: string): string {
  return (
    repairFigures(text)
      .replace(/\b(?:https?:\/\/|www\.)\S+/gi, " ")
      // An app screen copied as lines: a line that opens with a label ("Transaction ID:", "Date:") ends
      // the sentence before it, so the other side's name is not read on into the next row.
      .replace(
        /\n(?=[ \t]*(?:[A-Za-z]+[ \t]){0,2}[A-Za-z]+[ \t]*:|[ \t]*(?:Transaction|Txn|Ref|Reference|Date|Time|Balance|Fee|Service|VAT|Total|Status)\b)/g,
        ". ",
      )
      // "ETB 1,6OO": a figure after its currency is digits, whatever OCR made of them.
      .replace(
        /\b(ETB|Birr|Br)(\s*)(\d[\dOoIl|,.]*)/g,
        (_all, currency: string, gap: string, figure: string) =>
          `${currency}${gap}${figure.replace(/[Oo]/g, "0").replace(/[Il|]/g, "1")}`,
      )
      .replace(/\s+/g, " ")
      .trim()
  );
}

function firstMovement(flat: string): Movement | null {
  let best: Movement | null = null;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const { pattern, read } of MOVEMENTS) {
    const match = pattern.exec(flat);
    if (!match || match.index >= bestAt) continue;
    const reading = read(match);
    if (!reading) continue;
    best = { ...reading, end: match.index + match[0].length };
    bestAt = match.index;
  }
  return best;
}

const NOT_A_NAME = /^(?:valued\s+)?(?:customer|client|sir|madam|sir\s*\/\s*madam|user|member|subscriber)$/i;

/** "Dear NAME," — the phone's owner; "Dear Customer" names nobody. */
function ownerName(flat: string): string | undefined {
  const match = /\bDear\s+([A-Za-z][A-Za-z.'/\s-]{1,60}?)\s*(?:[,.!:]|\s(?=you\b|your\b|thank\b))/i.exec(
    flat,
  );
  const name = match?.[1]?.replace(/\s+/g, " ").trim();
  return name && !NOT_A_NAME.test(name) ? name : undefined;
}

/**
 * "from (your) account 1**3928" or "Debited account: 1**3928" on a debit, "to your account 1**7112" or
 * "Credited account: 1**7112" on a credit.
 */
function ownAccountIn(flat: string, direction: Direction): string | undefined {
  const said = direction === "debit" ? "from\\s+(?:your\\s+)?" : "to\\s+your\\s+";
  const label = direction === "debit" ? "(?:debited|source)\\s+" : "(?:credited|destination)\\s+";
  const match = new RegExp(
    String.raw`\b(?:${said}${INSTITUTION}(?:account|a\/c|wallet)|${label}(?:account|a\/c))\s*(?:no\.?|number)?\s*:?\s*${ACCOUNT}`,
    "i",
  ).exec(flat);
  return match?.[1] ? trimAccount(match[1]) : undefined;
}

/** The other side by its label anywhere in the message: "Beneficiary: NAME", "Beneficiary account: A". */
function labelledOtherSide(flat: string, direction: Direction): { name?: string; account?: string } {
  const labels = OTHER_SIDE_LABELS[direction];
  const name = cleanName(labels.name.exec(flat)?.[1]);
  const account = labels.account.exec(flat)?.[1];
  return { ...(name ? { name } : {}), ...(account ? { account: trimAccount(account) } : {}) };
}

/** How each direction labels the other side, compiled once: every SMS of every bank is read with them. */
const OTHER_SIDE_LABELS = {
  debit: otherSideLabels("(?:beneficiary|receiver|recipient)"),
  credit: otherSideLabels("(?:sender|payer)"),
} satisfies Record<Direction, unknown>;

function otherSideLabels(side: string): { name: RegExp; account: RegExp } {
  return {
    name: new RegExp(String.raw`\b${side}(?:'s)?(?:\s+name)?\s*:\s*([A-Za-z][^.,;:()]*)`, "i"),
    account: new RegExp(
      String.raw`\b${side}(?:'s)?\s+(?:account|a\/c|wallet|phone)\s*(?:no\.?|number)?\s*:?\s*${ACCOUNT}`,
      "i",
    ),
  };
}

/**
 * The other side, from the words after the amount: "to account 1**1758 (NAME)", "to NAME (2519****4025)",
 * "to NAME 251714***707", "from NAME on …", "for NAME-ETB-6171". The owner's own account is skipped.
 */
function counterparty(after: string, direction: Direction): { name?: string; account?: string } {
  const words = direction === "debit" ? "to|for|in\\s+fav(?:ou)?r\\s+of" : "from|by";
  const sentence = after.split(/(?<=[a-z0-9)])\.\s|;/i)[0] ?? after;
  const clause = new RegExp(String.raw`\b(?:${words})\s+(?!your\b)(.+)`, "i").exec(sentence)?.[1];
  if (!clause) return {};
  // "transfer to NAME", "IPS transfer from NAME", "a payment to NAME": the kind of transfer is no name.
  const withoutKind = clause.replace(
    /^(?:an?\s+|the\s+)?(?:[A-Za-z]+\s+)?(?:transfer|payment|transaction)\s+(?:to|from)\s+/i,
    "",
  );
  // "from NAME, account 1000****5521, on …", "to NAME, Commercial Bank of Ethiopia account 1000****5521"
  const commaAccount = new RegExp(
    String.raw`^([A-Za-z][^,()]*?)\s*,\s*${INSTITUTION}(?:account|a\/c)\s*(?:no\.?|number)?\s*:?\s*${ACCOUNT}`,
    "i",
  ).exec(withoutKind);
  if (commaAccount) return { name: cleanName(commaAccount[1]), account: trimAccount(commaAccount[2] ?? "") };
  // "CBE account of NAME (1000****7712)"
  const accountOfName = new RegExp(
    String.raw`^${INSTITUTION}(?:account|a\/c|wallet)\s+of\s+([A-Za-z][A-Za-z .'/-]*?)\s*\(\s*${ACCOUNT}\s*\)`,
    "i",
  ).exec(withoutKind);
  if (accountOfName)
    return { name: cleanName(accountOfName[1]), account: trimAccount(accountOfName[2] ?? "") };
  const head =
    withoutKind
      .split(
        /\s+(?:on|at|with|via|using|through|in)\s+(?=\S)|\s+(?:from|to)\s+your\b|,\s|\.\s|\s-\s(?![A-Z]{2})/i,
      )[0]
      ?.trim() ?? "";
  // "KEDIR MOHAMMED (Awash Bank)": the bank in brackets is where the other side banks.
  const sideName = head.replace(/\s*\([^)]*\bbank\b[^)]*\)$/i, "");
  // "0922334455 - SOSNA MEKURIA" (a wallet and its holder, the name in capitals)
  const accountDashName = new RegExp(
    String.raw`^${ACCOUNT}\s*-\s*([A-Z][A-Z'.-]*(?:\s+[A-Z][A-Z'.-]*)*)\b`,
  ).exec(withoutKind);
  if (accountDashName)
    return { account: trimAccount(accountDashName[1] ?? ""), name: cleanName(accountDashName[2]) };
  // "account 1**1758 (NAME)", "telebirr wallet 2519****4025 (NAME)", "CBE account 1000****5521 NAME",
  // "Awash Bank account 0142****7400 NAME", "telebirr 2519****4025"
  const accountFirst = new RegExp(
    String.raw`^${INSTITUTION}(?:account|a\/c|acct\.?|wallet)?\s*(?:no\.?|number)?\s*${ACCOUNT}\s*(?:\(([^)]+)\)|([A-Za-z][A-Za-z .'-]*))?$`,
    "i",
  ).exec(head);
  if (accountFirst) {
    const name = cleanName(accountFirst[2] ?? accountFirst[3]);
    return { account: trimAccount(accountFirst[1] ?? ""), ...(name ? { name } : {}) };
  }
  // "NAME (2519****4025)", "NAME 251714***707", "NAME's telebirr account +2519…", "NAME-ETB-6171"
  const nameFirst = new RegExp(
    String.raw`^(.+?)(?:'s)?\s*(?:\(\s*${ACCOUNT}\s*\)|(?:tele\s?birr\s+|m-?pesa\s+|wallet\s+|bank\s+)?(?:account|a\/c)?\s*(?:no\.?|number)?\s*${ACCOUNT}$|\s*-\s*ETB\s*-\s*(\d{4})$)`,
    "i",
  ).exec(head);
  if (nameFirst) {
    const account = nameFirst[2] ?? nameFirst[3] ?? nameFirst[4];
    return { name: cleanName(nameFirst[1]), ...(account ? { account: trimAccount(account) } : {}) };
  }
  return { name: cleanName(sideName) };
}

/** A name as printed; words that are no name (an amount, "your account", a bare number) give nothing. */
function cleanName(raw: string | undefined): string | undefined {
  const name = raw
    ?.replace(/\s+/g, " ")
    .replace(/[\s,.:;-]+$/, "")
    .trim();
  if (!name || name.length > 60 || !/^[A-Za-z]/.test(name) || /\d{3}/.test(name)) return undefined;
  if (/^(?:your|the|an?|account|wallet|bank)\b/i.test(name)) return undefined;
  // A wallet or bank is where the money went, not who got it ("to telebirr 2519****4025").
  if (/^(?:tele\s?birr|m-?pesa|cbe\s?birr|e-?birr)$|\bbank\b/i.test(name)) return undefined;
  return name;
}

function trimAccount(raw: string): string {
  return raw.replace(/[.-]+$/, "");
}

const TOTAL = new RegExp(String.raw`\btotal(?:\s+amount)?(?:\s+debited)?\s*(?:of|is|:)?\s*${AMOUNT}`, "i");

/**
 * The transfer inside a debit figure and the fees listed after it (VAT(15%) is a rate, not a fee of 15).
 * Banks word it both ways: Dashen's "debited with ETB 100.48" holds a 100.00 transfer and 0.48 of fees
 * (docs/banks.md §2.3), while a "debited with ETB 250.00 … Service Charge ETB 2.00" may mean 250.00 sent. A
 * stated total decides; without one the figure that is a whole amount of birr is the transfer, and the
 * figure less its fees when both are. When neither is (1,417.42 or 1,415.24?) the message does not say,
 * and no amount is read (a wrong one is worse than none, and the bank's record has it). Where a real
 * message of the bank settles it (`debitHoldsFees`), the figure less its fees it is, whole or not.
 */
function lessFees(figure: number, after: string, options: SmsOptions): number | undefined {
  const sentences = after.replace(RATE, " ");
  let fees = 0;
  for (const match of sentences.matchAll(FEE)) {
    const fee = parseAmount(match[1] ?? match[2] ?? "");
    if (fee !== null) fees += fee;
  }
  const net = cents(figure - fees);
  if (fees <= 0 || net <= 0) return figure;
  const totalMatch = TOTAL.exec(sentences);
  const total = totalMatch ? parseAmount(totalMatch[1] ?? totalMatch[2] ?? "") : null;
  if (total !== null && cents(total) === cents(figure + fees)) return figure;
  if ((total !== null && cents(total) === cents(figure)) || options.debitHoldsFees) return net;
  const whole = (amount: number) => Number.isInteger(cents(amount));
  if (whole(figure) === whole(net)) return whole(net) ? net : undefined;
  return whole(figure) ? figure : net;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/** "on 17/06/2026 18:14:15", "on 2026-06-18 at 10:23:00", "on 24/7/26 at 11:53 AM", "on : 2026-03-28 …". */
function dateIn(text: string, options: SmsOptions): string | null {
  const at = /\b(?:on|date|dated)\s*:?\s*(?=\d|[A-Z][a-z]{2})/i.exec(text);
  if (!at) return null;
  const window = text.slice(at.index + at[0].length, at.index + at[0].length + 40).replace(/\s+at\s+/i, " ");
  return readDate(window, options.dayOrder ?? "dmy", options.reference ?? null);
}
