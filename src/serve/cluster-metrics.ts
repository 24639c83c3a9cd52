import type { Worker } from "node:cluster";
import { AggregatorRegistry, type PrometheusContentType } from "prom-client";
import type { Metrics } from "../metrics/registry.js";

/**
 * GET /metrics of a cluster: a scrape reaches one worker, which asks the primary; the primary gathers every
 * worker's registry (prom-client's AggregatorRegistry, over the same IPC channel) and answers with the
 * merged text: counters and histograms summed, the breaker gauge the most open.
 */
const TAG = "birrcheck:metrics";
const ANSWER_WITHIN_MS = 5_000;

/** The worker's side: its registry is the one the primary's aggregator reads; scrapes go to the primary. */
export function mergedScrape(metrics: Metrics): Metrics {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Constructing one is what makes prom-client answer the primary's requests in a worker.
  new AggregatorRegistry();
  let nextId = 0;
  const waiting = new Map<number, (text: string | null) => void>();
  process.on("message", (message: unknown) => {
    const { tag, id, text } = (message ?? {}) as { tag?: unknown; id?: unknown; text?: unknown };
    if (tag !== TAG || typeof id !== "number") return;
    waiting.get(id)?.(typeof text === "string" ? text : null);
    waiting.delete(id);
  });
  const scrape = () =>
    new Promise<string>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("the cluster's metrics did not come"));
      }, ANSWER_WITHIN_MS);
      waiting.set(id, (text) => {
        clearTimeout(timer);
        if (text === null) reject(new Error("the cluster's metrics could not be gathered"));
        else resolve(text);
      });
      process.send?.({ tag: TAG, id });
    });
  return { ...metrics, scrape };
}

/** The primary's side: answers a worker's scrape with every worker's metrics merged. */
export function answerScrapes(worker: Worker, aggregator: AggregatorRegistry<PrometheusContentType>): void {
  worker.on("message", (message: unknown) => {
    const { tag, id } = (message ?? {}) as { tag?: unknown; id?: unknown };
    if (tag !== TAG || typeof id !== "number") return;
    const answer = (text: string | null) => worker.isConnected() && worker.send({ tag: TAG, id, text });
    aggregator.clusterMetrics().then(answer, () => answer(null));
  });
}
