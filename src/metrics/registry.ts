import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { BANK_CODES, type BankCode } from "../banks/codes.js";
import type { BreakerState } from "../breaker-state.js";

/** Bank errors by kind: BankUnavailableError reasons, and "garbage" for an answer that could not be read. */
export type BankErrorKind = "timeout" | "network" | "server_error" | "too_large" | "redirect" | "garbage";
export type BotUpdateType = "message" | "callback_query" | "other";

const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };
// Bank lookups range from tens of milliseconds to a 30 s timeout times its retries.
const BANK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
const OCR_BUCKETS = [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const PDF_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The instruments of one service instance, on a registry of its own: tests run many instances in one
 * process, and prom-client's global registry would mix them up.
 */
export interface Metrics {
  registry: Registry;
  /**
   * What GET /metrics answers: this registry's text, or (in a cluster worker, src/serve/worker.ts)
   * every worker's merged by the primary.
   */
  scrape(): Promise<string>;
  verifications: Counter<"bank" | "outcome" | "sandbox">;
  bankLookupSeconds: Histogram<"bank">;
  bankErrors: Counter<"bank" | "kind">;
  /** Lookups refused at once because the bank's breaker is open. */
  breakerRejections: Counter<"bank">;
  quotaRejections: Counter;
  ocrSeconds: Histogram;
  pdfParseSeconds: Histogram;
  botUpdates: Counter<"type">;
  httpSeconds: Histogram<"method" | "route" | "status">;
  /** Requests received and not yet answered (what a drain waits for). */
  httpInFlight: Gauge;
  /** 1 while this process can reach PostgreSQL, 0 from a failed connection until a probe is answered. */
  databaseReachable: Gauge;
  /** Requests refused at once (503) because the database could not be reached. */
  databaseRefusals: Counter;
  /** Reports the breakers' states in the breaker gauge, read at each scrape. */
  watchBreakers(states: () => Record<BankCode, BreakerState>): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let breakerStates: (() => Record<BankCode, BreakerState>) | null = null;

  const metrics: Metrics = {
    registry,
    scrape: () => registry.metrics(),
    verifications: new Counter({
      name: "birrcheck_verifications_total",
      help: "Verifications by bank and outcome (confirmed, not_found, duplicate, wrong_account, not_completed, document_mismatch, bank_unavailable, bank_unreadable).",
      labelNames: ["bank", "outcome", "sandbox"],
      registers,
    }),
    bankLookupSeconds: new Histogram({
      name: "birrcheck_bank_lookup_duration_seconds",
      help: "Time of one lookup at a bank, retries included (live banks only).",
      labelNames: ["bank"],
      buckets: BANK_BUCKETS,
      registers,
    }),
    bankErrors: new Counter({
      name: "birrcheck_bank_errors_total",
      help: "Failed bank lookups by bank and kind (timeout, network, server_error, too_large, redirect, garbage).",
      labelNames: ["bank", "kind"],
      registers,
    }),
    breakerRejections: new Counter({
      name: "birrcheck_bank_breaker_rejections_total",
      help: "Lookups answered as an outage without asking the bank, because its circuit breaker is open.",
      labelNames: ["bank"],
      registers,
    }),
    quotaRejections: new Counter({
      name: "birrcheck_quota_rejections_total",
      help: "Verifications refused because the business used up its monthly quota.",
      registers,
    }),
    ocrSeconds: new Histogram({
      name: "birrcheck_ocr_duration_seconds",
      help: "Time of server-side OCR of one receipt image.",
      buckets: OCR_BUCKETS,
      registers,
    }),
    pdfParseSeconds: new Histogram({
      name: "birrcheck_pdf_parse_duration_seconds",
      help: "Time to read the text of one uploaded PDF receipt.",
      buckets: PDF_BUCKETS,
      registers,
    }),
    botUpdates: new Counter({
      name: "birrcheck_bot_updates_total",
      help: "Telegram updates handled, by type (message, callback_query, other).",
      labelNames: ["type"],
      registers,
    }),
    httpSeconds: new Histogram({
      name: "birrcheck_http_request_duration_seconds",
      help: "HTTP request durations by method, matched route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    httpInFlight: new Gauge({
      name: "birrcheck_http_requests_in_flight",
      help: "HTTP requests received and not yet answered.",
      registers,
    }),
    databaseReachable: new Gauge({
      name: "birrcheck_database_reachable",
      help: "1 while the process can reach PostgreSQL; 0 from a failed connection until a probe is answered.",
      // Merged over the workers: 0 when any of them cannot reach it.
      aggregator: "min",
      registers,
    }),
    databaseRefusals: new Counter({
      name: "birrcheck_database_refusals_total",
      help: "Requests answered 503 at once, without waiting for a connection, while PostgreSQL could not be reached.",
      registers,
    }),
    watchBreakers(states) {
      breakerStates = states;
    },
  };

  new Gauge({
    name: "birrcheck_bank_breaker_state",
    help: "Circuit breaker per bank: 0 closed, 1 half-open (the next lookup is a probe), 2 open.",
    labelNames: ["bank"],
    // Each worker has its own breakers: the merged figure is the most open of them.
    aggregator: "max",
    registers,
    collect() {
      if (!breakerStates) return;
      const states = breakerStates();
      for (const bank of BANK_CODES) this.set({ bank }, BREAKER_VALUES[states[bank]]);
    },
  });
  metrics.databaseReachable.set(1);
  return metrics;
}
