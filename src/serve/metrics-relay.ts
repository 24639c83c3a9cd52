import type { MessageEnd } from "./message-end.js";

/**
 * GET /metrics with worker threads: a scrape reaches one worker, which asks the primary; the primary collects
 * every worker's registry as JSON and hands them all back, and the asking worker merges them
 * (worker-metrics.ts). The merging happens in the worker because the primary loads no library, prom-client
 * included (README, "Production"): here it only relays.
 */
export const METRICS_TAG = "birrcheck:metrics";
const COLLECT_WITHIN_MS = 5_000;

/** A worker's registry as prom-client's `getMetricsAsJSON()` gives it; relayed, never read here. */
export type RegistryJson = unknown[];

export type MetricsMessage = MetricsBody & { tag: typeof METRICS_TAG };

type MetricsBody =
  /** worker → primary: a scrape arrived; `id` names it in that worker. */
  | { kind: "scrape"; id: number }
  /** primary → every worker: send your registry. */
  | { kind: "collect"; id: number }
  /** worker → primary: my registry, for `collect` `id`. */
  | { kind: "collected"; id: number; registry: RegistryJson | null }
  /** primary → the scraping worker: every worker's registry (null: some did not answer in time). */
  | { kind: "merged"; id: number; registries: RegistryJson[] | null };

export function isMetricsMessage(message: unknown): message is MetricsMessage {
  const { tag, id } = (message ?? {}) as { tag?: unknown; id?: unknown };
  return tag === METRICS_TAG && typeof id === "number";
}

/**
 * The primary's side: relays one worker's scrape to every worker (`workers()`, those alive) and their
 * registries back to it.
 */
export function relayScrapes(worker: MessageEnd, workers: () => MessageEnd[]): void {
  worker.on("message", (message: unknown) => {
    if (!isMetricsMessage(message)) return;
    if (message.kind === "scrape") {
      void collectRegistries(workers()).then((registries) => {
        const merged: MetricsMessage = { tag: METRICS_TAG, kind: "merged", id: message.id, registries };
        worker.postMessage(merged);
      });
    }
    if (message.kind === "collected") collected.get(message.id)?.(message.registry);
  });
}

let nextCollect = 0;
const collected = new Map<number, (registry: RegistryJson | null) => void>();

/** Every worker's registry; null when one does not answer within the limit. */
function collectRegistries(workers: MessageEnd[]): Promise<RegistryJson[] | null> {
  const id = ++nextCollect;
  return new Promise((resolve) => {
    const registries: RegistryJson[] = [];
    const finish = (result: RegistryJson[] | null) => {
      clearTimeout(timer);
      collected.delete(id);
      resolve(result);
    };
    const timer = setTimeout(() => finish(null), COLLECT_WITHIN_MS);
    collected.set(id, (registry) => {
      if (registry === null) return finish(null);
      registries.push(registry);
      if (registries.length === workers.length) finish(registries);
    });
    const ask: MetricsMessage = { tag: METRICS_TAG, kind: "collect", id };
    for (const worker of workers) worker.postMessage(ask);
    if (workers.length === 0) finish([]);
  });
}
