import { AggregatorRegistry } from "prom-client";
import type { Metrics } from "../metrics/registry.js";
import { toPrimary } from "./message-end.js";
import { isMetricsMessage, METRICS_TAG, type MetricsMessage, type RegistryJson } from "./metrics-relay.js";

const ANSWER_WITHIN_MS = 6_000;

/**
 * A worker thread's side of GET /metrics (metrics-relay.ts): a scrape asks the primary for every
 * worker's registry and merges them with prom-client's aggregation (counters and histograms summed, the
 * breaker gauge the most open, the process's figures once); this worker also answers the primary's requests
 * for its own registry.
 */
export function mergedScrape(metrics: Metrics): Metrics {
  const primary = toPrimary();
  const send = (message: MetricsMessage) => primary.postMessage(message);
  let nextId = 0;
  const waiting = new Map<number, (registries: RegistryJson[] | null) => void>();
  primary.on("message", (message: unknown) => {
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
        reject(new Error("the workers' metrics did not come"));
      }, ANSWER_WITHIN_MS);
      waiting.set(id, (registries) => {
        clearTimeout(timer);
        if (registries === null) reject(new Error("the workers' metrics could not be gathered"));
        else resolve(AggregatorRegistry.aggregate(registries.map(processFiguresOnce)).metrics());
      });
      send({ tag: METRICS_TAG, kind: "scrape", id });
    });
  return { ...metrics, scrape };
}

/**
 * The workers are threads of one process: its figures (`process_*`: CPU, memory, file descriptors) are the
 * same in every worker's registry and are taken once instead of summed. Node's (`nodejs_*`: heap, event
 * loop) are each thread's own and are summed as before.
 */
function processFiguresOnce(registry: RegistryJson): RegistryJson {
  return registry.map((metric) =>
    typeof metric === "object" &&
    metric !== null &&
    String((metric as { name?: unknown }).name).startsWith("process_")
      ? { ...metric, aggregator: "first" }
      : metric,
  );
}
