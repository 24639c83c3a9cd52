/**
 * The state of a bank's circuit breaker: closed (lookups go through), half_open (one probe lookup is let
 * through), open (refusing). The engine's breakers (src/engine/circuit-breaker.ts) have it and the metrics
 * (src/metrics/registry.ts) report it; defined here so that infrastructure imports nothing from the engine.
 */
export type BreakerState = "closed" | "half_open" | "open";
