import { createCipheriv, createDecipheriv, pbkdf2Sync } from "node:crypto";
import { parseAmount } from "../../reading/parse-utils.js";
import { readDate, t24References } from "../../reading/t24.js";
import type { QrPayloadReader } from "../qr-reading.js";
import type { Receipt } from "../types.js";

// Bank of Abyssinia's receipt QR (docs/banks.md §2.5): base64 of AES-256-CBC, key PBKDF2-SHA1(passphrase,
// "salt", 10,000 iterations, 32 bytes), IV the 16 bytes "1234567890123456"; the plaintext is CSV
// sourceAccount,sourceName,amount,reference,date,receiverAccount,receiverName. Anyone with the slip page's
// public passphrase can make one, so it only says what to look up: the bank's answer decides, and a code
// whose fields differ from the bank's record is a mismatch like a doctored document.

const SALT = "salt";
const IV = Buffer.from("1234567890123456", "utf8");
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** The digits of the payer's account the slip lookup takes (the slip belongs to the payer's app). */
const SUFFIX_DIGITS = 5;

/** The reader for a passphrase (BANK_BOA_QR_KEY); without one, BOA codes are not read. */
export function createBoaQrReader(passphrase: string): QrPayloadReader {
  const key = pbkdf2Sync(passphrase, SALT, 10_000, 32, "sha1");
  return {
    bank: "boa",
    read(content) {
      const compact = content.trim();
      if (compact.length < 24 || !BASE64.test(compact)) return null;
      const plain = decrypt(key, compact);
      const fields = plain?.split(",").map((field) => field.trim());
      if (fields?.length !== 7) return null;
      const [
        sourceAccount = "",
        sourceName,
        amount,
        printedReference = "",
        date,
        receiverAccount,
        receiverName,
      ] = fields;
      const reference = t24References(printedReference, ["FT", "TT"])[0];
      const digits = sourceAccount.replace(/\D/g, "");
      if (!reference || digits.length < SUFFIX_DIGITS) return null;
      const receipt: Partial<Receipt> = { payerAccount: sourceAccount };
      const value = parseAmount(amount ?? "");
      if (value !== null) Object.assign(receipt, { amount: value, currency: "ETB" });
      const when = date ? readDate(date, "dmy", reference) : null;
      if (when) receipt.transactionDate = when;
      if (sourceName) receipt.payerName = sourceName;
      if (receiverAccount) receipt.receiverAccount = receiverAccount;
      if (receiverName) receipt.receiverName = receiverName;
      return {
        kind: "claim",
        claim: {
          bank: "boa",
          transactionNumber: reference,
          accountNumber: digits.slice(-SUFFIX_DIGITS),
          shareUrl: null,
          receipt,
        },
      };
    },
  };
}

function decrypt(key: Buffer, base64: string): string | null {
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, IV);
    return Buffer.concat([decipher.update(Buffer.from(base64, "base64")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** The QR a BOA slip carries, for tests and the simulator: the reverse of the reader. */
export function encryptBoaQr(passphrase: string, fields: readonly string[]): string {
  const key = pbkdf2Sync(passphrase, SALT, 10_000, 32, "sha1");
  const cipher = createCipheriv("aes-256-cbc", key, IV);
  return Buffer.concat([cipher.update(fields.join(","), "utf8"), cipher.final()]).toString("base64");
}
