import type { BankCode } from "../banks/codes.js";
import type { LookupTarget, Receipt } from "../banks/types.js";

/** A request as it reached the simulator, with the bank origin it was meant for. */
export interface SimRequest {
  /** The real bank origin the client addressed, "host:port" (port always written). */
  origin: string;
  method: string;
  /** Path at the real bank, e.g. "/receipt/DFH51OFIED". */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

/** A seeded lookup and the receipt the adapter must read back from the bank's answer. */
export interface SimExample {
  /** What a caller would supply (reference + account/phone, or the token of a token link). */
  target: LookupTarget;
  /** A share URL that leads to the same receipt, where the bank has share links. */
  shareUrl?: string;
  /** The bank's own reference the adapter must report for this receipt (LookupOutcome.reference). */
  reference: string;
  receipt: Receipt;
}

/**
 * One imitated bank: answers like the real endpoints of docs/banks.md (labels, keys, misspellings,
 * not-found signatures). Outage modes (slow, 5xx, garbage, reset...) are applied by the server core.
 */
export interface SimulatedBank {
  readonly code: BankCode;
  /** Real origins this bank answers for, "host:port". */
  readonly origins: readonly string[];
  /** Seeded receipts that are found; the first one is the sandbox receipt of docs/api.md §5. */
  readonly examples: readonly SimExample[];
  /** A well-formed lookup the bank does not know. */
  readonly notFound: LookupTarget;
  handle(request: SimRequest): Promise<SimResponse> | SimResponse;
}
