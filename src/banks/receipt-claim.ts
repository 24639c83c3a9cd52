import type { BankCode } from "./codes.js";
import type { Receipt } from "./types.js";

/**
 * What a receipt document claims (PDF text, text copied from the bank's page or app, OCR text of a photo,
 * or the bank's SMS), before the bank confirms anything. Only what the document states is filled in.
 */
export interface ReceiptClaim {
  bank: BankCode;
  /**
   * The reference to look up, normalised the way the bank's adapter normalises it and repaired from OCR
   * confusions (O/0, I/1, S/5, B/8) where the reference shape says a digit or a letter must stand.
   * For token-only banks (Awash, Zemen, CBE mobile receipts) the token when the text carries one.
   * Without a link or token, the reference the receipt prints (Awash's Transaction ID, Zemen's Reference
   * No.), which the engine explains cannot be looked up alone.
   */
  transactionNumber: string;
  /**
   * The reference the receipt prints as its own (Zemen's Reference No., Awash's Transaction ID, CBE's FT
   * number), where the lookup goes through a link token instead; null or absent otherwise.
   */
  reference?: string | null;
  /** The account or phone the lookup needs, when the text carries it (BOA slip suffix, CBE Birr payer phone). */
  accountNumber: string | null;
  /** The bank's own share link found in the text (an SMS), else null. Never a feedback or other link. */
  shareUrl: string | null;
  /** The fields the document states, as it states them (amounts as numbers, dates ISO with +03:00). */
  receipt: Partial<Receipt>;
  /**
   * Read by OCR: positions in `transactionNumber` whose glyphs it was unsure of, where a misreading most
   * likely is (the engine tries look-alikes there first when the bank does not know the reference).
   */
  unsure?: readonly number[];
  /**
   * Read by OCR: other characters it weighed for glyphs of `transactionNumber` (`at`, a position in it), and
   * how far below the one it chose (`margin`, 0–100). The engine asks the bank for these spellings first.
   */
  alternatives?: readonly ReferenceAlternative[];
}

export interface ReferenceAlternative {
  at: number;
  text: string;
  margin: number;
}

/**
 * What a text says, whether or not it names a receipt: a fragment, or a page that prints no reference,
 * still states an amount or names. Only a reading with a reference is a claim that can be verified.
 */
export type ReceiptReading = Omit<ReceiptClaim, "transactionNumber"> & { transactionNumber: string | null };

/** One bank's reader of receipt text. Pure and synchronous. */
export interface BankReceiptParser {
  readonly bank: BankCode;
  /** The bank's name as a receipt prints it (OCR's usual misreadings included), for breaking detection ties. */
  readonly issuer: RegExp;
  /**
   * How strongly the text looks like this bank's: 0 not at all; 1 only a reference shape that other banks
   * share; 5 a distinctive label or phrase; 10 the bank's own host, TIN or name. detect.ts picks the bank.
   */
  detect(text: string): number;
  /**
   * The account or phone the bank's lookup needs, from what the text says about the transfer (CBE Birr:
   * the payer's phone); for banks whose lookup needs none, or takes it from the link only, absent.
   */
  lookupAccount?(receipt: Partial<Receipt>): string | null;
  /**
   * Set where a real SMS of the bank (docs/banks.md §2) shows that its "debited with ETB X" holds the fees
   * listed after it (Dashen: 100.48 = 100.00 + 0.48): the transfer is X less the fees, whole birr or not.
   */
  debitHoldsFees?: true;
  /**
   * Whether a reference or link token read from an image has every character the bank prints (CBE's v2
   * tokens: 20 after "v2-"; its references: FT and 10). Another read is a misread: it is refused, never
   * looked up. Absent where the bank's shapes vary.
   */
  wholeFromImage?(reference: string): boolean;
  /**
   * Set where every reference and link the bank issues has a shape its adapter checks (docs/banks.md: BOA's
   * and Amhara's FT/TT and 10, M-Pesa's 10, telebirr's 9 or 10, CBE Birr's 10 to 12): one read from an
   * image that the adapter refuses is a misread, refused like a partly read one. Awash, Zemen and Dashen
   * print ids that cannot be looked up, and their adapters explain why instead.
   */
  fixedShapes?: true;
  /**
   * Reads what the text states; `transactionNumber` is null when it carries no reference or link of this
   * bank. `printed` is the reference the shared labels found ("Transaction ID: …"), taken when the bank's
   * own reading finds none.
   */
  parse(text: string, printed?: string | null): ReceiptReading;
}

/** A bank's reader completed by the generic ones (receipt-parsers.ts): what every caller uses. */
export interface ReceiptTextParser extends Omit<BankReceiptParser, "parse"> {
  /** Everything the text states, with or without a reference. */
  read(text: string): ReceiptReading;
  /** The claim to verify, or null when the text carries no reference or link of this bank. */
  parse(text: string): ReceiptClaim | null;
}
