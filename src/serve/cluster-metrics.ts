import { AggregatorRegistry } from "prom-client";
import type { Metrics } from "../metrics/registry.js";
import { isMetricsMessage, METRICS_TAG, type MetricsMessage, type RegistryJson } from "./metrics-relay.js";

const ANSWER_WITHIN_MS = 6_000;

/**
 * The worker's side of GET /metrics in a cluster (metrics-relay.ts): a scrape asks the primary for every
 * worker's registry and merges them with prom-client's aggregation (counters and histograms summed, the
 * breaker gauge the most open, process figures summed); this worker also answers the primary's requests
 * for its own registry.
 */
export function mergedScrape(metrics: Metrics): Metrics {
  const send = (message: MetricsMessage) => process.send?.(message);
  let nextId = 0;
  const waiting = new Map<number, (registries: RegistryJson[] | null) => void>();
  process.on("message", (message: unknown) => {
    if (!isMetricsMessage(message)) return;
    if (message.kind === "collect") {
      metrics.registry.getMetricsAsJSON().then(
        (registry) => send({ tag: METRICS_TAG, kind: "collected", id: message.id, registry }),
        () => send({ tag: METRICS_TAG, kind: "collected", id: message.id, registry: null }),
      );
    }
    if (message.kind === "merged") {
      waiting.get(message.id)?.(message.registries);
      waiting.delete(message.id);
    }
  });
  const scrape = () =>
    new Promise<string>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("the cluster's metrics did not come"));
      }, ANSWER_WITHIN_MS);
      waiting.set(id, (registries) => {
        clearTimeout(timer);
        if (registries === null) reject(new Error("the cluster's metrics could not be gathered"));
        else resolve(AggregatorRegistry.aggregate(registries).metrics());
      });
      send({ tag: METRICS_TAG, kind: "scrape", id });
    });
  return { ...metrics, scrape };
}
