import { bankInfo } from "../banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../banks/codes.js";
import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { BankAdapters } from "../banks/registry.js";
import type { LookupTarget } from "../banks/types.js";
import { ValidationError } from "../errors.js";
import { INPUT_FIELDS } from "../input-fields.js";
import { parseReceiptUrl, type ReceiptLink, recognizeReceiptUrl } from "./receipt-url.js";
import type { ParsedReceipt, ParsedReceiptUrl } from "./types.js";

// What an input says before any bank is asked, without quota: POST /verify/parse-url and parse-receipt, the
// bot's choice of the first receipt link in a message, and the banks a bare reference may belong to.

/** What a share link says (400 for a link of no supported bank, 422 for a malformed one). */
export function describeLink(raw: string, adapters: BankAdapters): ParsedReceiptUrl {
  const link = parseReceiptUrl(raw, adapters);
  const problem = linkProblem(link, adapters);
  if (problem && problem.field !== INPUT_FIELDS.accountNumber) {
    throw ValidationError.field(INPUT_FIELDS.receiptUrl, problem.message);
  }
  return {
    bank: link.bank,
    transactionNumber: link.link.transactionNumber,
    accountNumber: link.link.accountNumber,
    sourceUrl: link.sourceUrl,
    receiptToken: link.link.token,
    requiresAccountNumber: problem?.field === INPUT_FIELDS.accountNumber,
    // Only a CBE legacy link names the credited account (its last 8 digits); BOA's suffix may be the payer's.
    requiresExplicitSettlementAccount: !(
      link.link.accountNumber && bankInfo(link.bank).accountRole === "receiving"
    ),
  };
}

/** The first of `links` that is a well-formed receipt link of a supported bank; null when none is. */
export function firstReceiptLink(links: readonly string[], adapters: BankAdapters): string | null {
  for (const raw of links) {
    const link = recognizeReceiptUrl(raw, adapters);
    const problem = link ? linkProblem(link, adapters) : null;
    if (link && (!problem || problem.field === INPUT_FIELDS.accountNumber)) return raw;
  }
  return null;
}

/** What a read receipt claims and what the bank will still need. */
export function describeClaim(claim: ReceiptClaim, adapters: BankAdapters): ParsedReceipt {
  const link = claim.shareUrl ? describeLink(claim.shareUrl, adapters) : null;
  const target: LookupTarget = {
    transactionNumber: link?.transactionNumber ?? claim.transactionNumber ?? "",
    account: link?.accountNumber ?? claim.accountNumber,
    token: link?.receiptToken ?? null,
  };
  const problem = adapters[claim.bank].validate(target);
  const info = bankInfo(claim.bank);
  return {
    bank: claim.bank,
    // What the receipt prints as its reference, as /verify answers it; the link it is looked up by apart.
    transactionNumber: claim.reference ?? link?.transactionNumber ?? claim.transactionNumber,
    sourceUrl: claim.shareUrl,
    accountNumber: target.account,
    requiresAccountNumber: problem?.field === INPUT_FIELDS.accountNumber,
    requiresExplicitSettlementAccount: !(target.account && info.accountRole === "receiving"),
    accountDigits: info.accountDigits ?? null,
    receipt: claim.receipt,
  };
}

/** The banks whose reference shape fits a bare transaction number (its account aside), in catalogue order. */
export function banksForReference(raw: string, adapters: BankAdapters): BankCode[] {
  return BANK_CODES.filter((code) => {
    const adapter = adapters[code];
    const transactionNumber = adapter.normalizeReference(raw);
    const problem = adapter.validate({ transactionNumber, account: null, token: null });
    return transactionNumber !== "" && problem?.field !== INPUT_FIELDS.transactionNumber;
  });
}

function linkProblem({ bank, link }: ReceiptLink, adapters: BankAdapters) {
  return adapters[bank].validate({
    transactionNumber: link.transactionNumber,
    account: link.accountNumber,
    token: link.token,
  });
}
