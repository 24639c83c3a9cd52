import { bankUrls } from "../../reading/links.js";
import { parseAmount } from "../../reading/parse-utils.js";
import {
  cleanLines,
  compactReceipt,
  type Labels,
  labelledAmount,
  namesIssuer,
  ocrAccount,
  readLabelled,
} from "../../reading/receipt-lines.js";
import { hasT24Reference, readDate, t24References } from "../../reading/t24.js";
import { repairReference } from "../../reading/text.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt, ShareLink } from "../types.js";
import { createBoaAdapter, HOST } from "./adapter.js";
import { atLineStart, type BoaLabel, DISTINCTIVE, FIELDS } from "./labels.js";

// Bank of Abyssinia (docs/banks.md §2.5): the app receipt and the slip page (labels vary by transaction
// type), and the SMS whose "Receipt:" link carries trx = 12-character reference + the SMS owner's 5-digit
// account suffix, i.e. everything the lookup needs. The "/cs/?trx=C…" feedback link on the same host is
// not a receipt.

const NAME = /Bank\s*of\s*Abyssinia|bankofabyssinia|አቢሲኒያ\s*ባንክ|አቢሲንያ\s*ባንክ/i;
const PREFIXES = ["FT", "TT"] as const;
/** A slip id written out: reference + 5-digit account suffix (17 characters, docs/banks.md §2.5). */
const SLIP_ID = /(?<![A-Za-z0-9])((?:FT|TT)[0-9OoIl]{5}[A-Z0-9]{5}[0-9OoIl]{5})(?![A-Za-z0-9])/;

/** Labels whose values are not read, so that their figures are never taken for another field. */
const SKIPPED = [
  "transferredInWords",
  "amountInWords",
  "totalIncludingVat",
  "totalAmount",
  "serviceCharge",
  "vat",
  "bankName",
  "paymentReference",
  "tel",
  "address",
  "scanQr",
  "currency",
  "vatSequence",
] as const satisfies readonly BoaLabel[];

// Longer labels first: "Source Account Name" before "Source Account", "Amount in Words" before "Amount".
const LABELS = [
  ["payerName", atLineStart(FIELDS.payerName)],
  ["payerAccount", atLineStart(FIELDS.payerAccount)],
  ["receiverName", atLineStart(FIELDS.receiverName)],
  ["receiverAccount", atLineStart(FIELDS.receiverAccount)],
  ["ignored", atLineStart(SKIPPED)],
  ["amount", atLineStart(FIELDS.amount)],
  ["date", atLineStart(FIELDS.date)],
  ["reference", atLineStart(FIELDS.reference)],
  ["type", atLineStart(FIELDS.type)],
  ["description", atLineStart(FIELDS.description)],
] as const satisfies Labels<string>;
type Key = (typeof LABELS)[number][0];

export const boaReceiptParser: BankReceiptParser = {
  bank: "boa",
  issuer: NAME,
  fixedShapes: true,

  detect(text) {
    if (bankUrls(text, [HOST]).length > 0) return 10;
    const lines = cleanLines(text);
    if (namesIssuer(lines, NAME)) return 10;
    if (lines.some((line) => DISTINCTIVE.test(line))) return 5;
    // TT references and written-out slip ids are BOA's alone; FT is shared with CBE, Amhara, Siinqee…
    if (hasT24Reference(text, ["TT"]) || SLIP_ID.test(text)) return 5;
    return hasT24Reference(text, ["FT"]) ? 1 : 0;
  },

  parse(text, printed = null) {
    const lines = cleanLines(text);
    const link = slipLink(text);
    const values = readLabelled(lines, LABELS, ["payerName", "receiverName"]);
    const written = slipIdInText(text);
    const labelled = (values.get("reference") ?? []).flatMap((value) => t24References(value, PREFIXES))[0];
    const transactionNumber =
      link?.link.transactionNumber ??
      labelled ??
      written?.reference ??
      t24References(text, PREFIXES)[0] ??
      printed;
    const fromWritten = written && written.reference === transactionNumber ? written.suffix : null;
    const claim: ReceiptReading = {
      bank: "boa",
      transactionNumber,
      accountNumber: link?.link.accountNumber ?? fromWritten,
      shareUrl: link?.url ?? null,
      receipt: { ...smsFields(lines.join(" ")), ...labelFields(values, transactionNumber) },
    };
    return claim;
  },
};

// --- internal helpers ---

/** The "/slip/?trx=" link (OCR-repaired digits, a trx wrapped onto the next line rejoined). */
function slipLink(text: string): { url: string; link: ShareLink } | null {
  const adapter = createBoaAdapter();
  const joined = text.replace(
    /(https?:\/\/cs\.bankofabyssinia\.com\/slip\/?\?trx=)([A-Za-z0-9]{1,16})[ \t]*\r?\n[ \t]*([A-Za-z0-9]+)/gi,
    (whole, prefix: string, head: string, next: string) =>
      `${head}${next}`.length === 17 ? `${prefix}${head}${next}` : whole,
  );
  const urls = bankUrls(joined, [HOST]).map((found) => new URL(found));
  const copy = feedbackCopy(urls);
  for (const url of urls) {
    const trx = url.searchParams.get("trx");
    const repaired = trx && /^\/slip\/?$/.test(url.pathname) ? repairedSlipId(trx, copy) : null;
    if (repaired) url.searchParams.set("trx", repaired);
    const link = adapter.parseShareUrl(url);
    if (link) return { url: url.toString(), link };
  }
  return null;
}

/** The reference of the SMS's feedback link ("/cs/?trx=C{ref}", docs/banks.md §2.5) as OCR read it. */
function feedbackCopy(urls: readonly URL[]): string | null {
  const feedback = urls.find((url) => /^\/cs\/?$/.test(url.pathname));
  const trx = feedback?.searchParams.get("trx");
  return trx && /^C/i.test(trx) ? trx.slice(1, 13) : null;
}

/**
 * A slip id's OCR confusions repaired by its shape; where a character of its reference fits the shape in no
 * reading (a T read as 1 where only F or T may stand), the feedback link's copy of the reference stands in
 * for it. The slip link is the receipt: the copy only fills what the slip's own characters cannot be.
 */
function repairedSlipId(trx: string, copy: string | null): string | null {
  const candidates = PREFIXES.map((prefix) => `${prefix}99999XXXXX99999`).flatMap((shape) => {
    const own = repairReference(trx, shape);
    if (own) return [{ id: own, filled: 0 }];
    if (!copy || trx.length !== shape.length) return [];
    let filled = 0;
    const merged = [...trx]
      .map((ch, at) => {
        if (at >= copy.length || repairReference(ch, shape[at] ?? "")) return ch;
        filled += 1;
        return copy[at] ?? ch;
      })
      .join("");
    const id = repairReference(merged, shape);
    return id ? [{ id, filled }] : [];
  });
  const fewest = Math.min(...candidates.map((c) => c.filled));
  const best = candidates.filter((c) => c.filled === fewest);
  // Two prefixes that fit equally well: the SMS does not say which, so neither is taken.
  return best.length === 1 ? (best[0]?.id ?? null) : null;
}

function slipIdInText(text: string): { reference: string; suffix: string } | null {
  const raw = SLIP_ID.exec(text)?.[1];
  const prefix = raw?.slice(0, 2) ?? "";
  const repaired = raw ? repairReference(raw, `${prefix}99999XXXXX99999`) : null;
  return repaired ? { reference: repaired.slice(0, 12), suffix: repaired.slice(12) } : null;
}

function labelFields(values: ReadonlyMap<Key, string[]>, reference: string | null): Partial<Receipt> {
  const first = (key: Key) => values.get(key)?.[0];
  const dateText = first("date");
  // A slip or app receipt exists only for a posted transfer (the adapter reads every slip as completed).
  const isReceipt = values.has("reference") || values.has("amount");
  return compactReceipt({
    ...(isReceipt ? { status: "completed" } : {}),
    transactionType: first("type"),
    ...labelledAmount(first("amount")),
    transactionDate: dateText ? (readDate(dateText, "dmy", reference) ?? undefined) : undefined,
    payerName: first("payerName"),
    payerAccount: ocrAccount(first("payerAccount")),
    receiverName: first("receiverName"),
    receiverAccount: ocrAccount(first("receiverAccount")),
    description: first("description"),
  });
}

/** "your account 2*23 was debited with ETB 200.00" / "was credited with ETB 100.00 by NAME." */
function smsFields(flat: string): Partial<Receipt> {
  const moved =
    /\baccount\s+([\d*xX•]+)\s+was\s+(debited|credited)\s+with\s+(?:ETB|Birr)\s*([\d,]+(?:\.\d+)?)(?:\s+by\s+(.+?)\.(?:\s|$))?/i.exec(
      flat,
    );
  if (!moved) return {};
  const owner = /\bDear\s+([^,.]+?)\s*,/i.exec(flat)?.[1]?.trim();
  const debit = moved[2]?.toLowerCase() === "debited";
  return compactReceipt({
    status: "completed",
    amount: parseAmount(moved[3] ?? "") ?? undefined,
    currency: "ETB",
    ...(debit
      ? { payerName: owner, payerAccount: moved[1] }
      : { receiverName: owner, receiverAccount: moved[1], payerName: moved[4]?.trim() }),
  });
}
