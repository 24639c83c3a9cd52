import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { BankAdapter, LookupOutcome, LookupTarget } from "../banks/types.js";
import type { Logger } from "../logger.js";
import { alternativeVariants, confusableVariants } from "../reading/confusables.js";
import type { BankGateway } from "./bank-gateway.js";
import { boundLookup, type LookupBounds } from "./deadline.js";
import { documentMismatches } from "./document-match.js";
import type { Resolved } from "./resolve.js";
import { readFromImage } from "./types.js";

/** Lookups beyond the first for a reference OCR read; all of them are one verification, one quota unit. */
export const MAX_VARIANT_LOOKUPS = 4;
/** Variants stop this long before the deadline, so the not-found still reaches the caller in time. */
const DEADLINE_MARGIN_MS = 1_000;

/**
 * The bank's answer for what the request names. When the reference came from reading an image and the
 * bank does not know it, its most likely misreadings are asked too (at most MAX_VARIANT_LOOKUPS, within the
 * deadline), and a variant counts only when its receipt agrees with the amount and names read on the image:
 * a misread reference must never confirm somebody else's payment.
 */
export async function lookupAsRead(
  gateway: BankGateway,
  adapter: BankAdapter,
  resolved: Resolved,
  bounds: LookupBounds,
  logger: Logger,
): Promise<LookupOutcome> {
  const { target, claimed } = resolved;
  const first = await gateway.lookup(resolved.bank, target, bounds);
  if (
    first.kind === "found" ||
    !claimed ||
    !readFromImage(resolved.method) ||
    claimed.receipt.amount === undefined
  )
    return first;
  const started = Date.now();
  const read = target.token ?? target.transactionNumber;
  for (const variant of variantsOf(adapter, target, MAX_VARIANT_LOOKUPS, claimed)) {
    const stopAt = bounds.deadline - DEADLINE_MARGIN_MS;
    if (bounds.signal.aborted || Date.now() >= stopAt) break;
    const variantBounds = boundLookup(resolved.bank, stopAt, [bounds.signal]);
    const outcome = await gateway
      .lookup(resolved.bank, variant, variantBounds)
      .catch(() => null)
      .finally(variantBounds.dispose);
    if (outcome?.kind !== "found") continue;
    if (documentMismatches(claimed.receipt, outcome.receipt, true).length > 0) continue;
    logger.info(
      {
        bank: resolved.bank,
        read,
        known: variant.token ?? variant.transactionNumber,
        ms: Date.now() - started,
      },
      "misread reference: the bank knew a variant",
    );
    return outcome;
  }
  return first;
}

/**
 * Targets with other characters in the token (or else the reference) that the bank would accept: those OCR
 * itself weighed first, then look-alikes, where OCR was unsure first (what `claimed` says it doubted).
 */
export function variantsOf(
  adapter: BankAdapter,
  target: LookupTarget,
  limit: number,
  claimed: Pick<ReceiptClaim, "transactionNumber" | "unsure" | "alternatives">,
): LookupTarget[] {
  const read = target.token ?? target.transactionNumber;
  // What OCR doubted is about the reference as the claim spells it, which a lookup may have normalised.
  const doubted = claimed.transactionNumber === read;
  const targets: LookupTarget[] = [];
  const variants = [
    ...alternativeVariants(read, doubted ? (claimed.alternatives ?? []) : [], limit * 3),
    ...confusableVariants(read, limit * 3, doubted ? claimed.unsure : undefined),
  ];
  for (const variant of variants) {
    const candidate: LookupTarget = target.token
      ? {
          ...target,
          token: variant,
          transactionNumber: target.transactionNumber === read ? variant : target.transactionNumber,
        }
      : { ...target, transactionNumber: adapter.normalizeReference(variant) };
    const problem = adapter.validate(candidate);
    const key = candidate.token ?? candidate.transactionNumber;
    if (!problem && key !== read && !targets.some((t) => (t.token ?? t.transactionNumber) === key))
      targets.push(candidate);
    if (targets.length === limit) break;
  }
  return targets;
}
