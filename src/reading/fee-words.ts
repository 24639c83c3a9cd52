/**
 * What a bank charges on top of a transfer, as receipts and SMS name it: service fee or charge, commission,
 * VAT, DRRF / disaster fund, excise tax, stamp duty, penalty, income tax and interest fees, transaction fee,
 * a bare "charge". A regular-expression alternation, to be wrapped in word boundaries.
 */
export const FEE_WORDS = String.raw`service\s*(?:fee|charge)|commission|VAT|DRRF(?:\s*fee)?|disaster\s*(?:recovery|risk)(?:\s*fund)?(?:\s*fee)?|excise\s*tax|stamp\s*duty|penalty\s*fee|income\s*tax(?:\s*fee)?|interest\s*fee|transaction\s*(?:fee|charge)|charge`;
