import type { WorkersReady } from "./readiness.js";

/** What a cluster primary tells its workers. */
export type ToWorker =
  /** The database to serve from, once it is up (the embedded one, or DATABASE_URL). */
  | { type: "birrcheck:database"; url: string }
  /** How many workers serve and whether the embedded database is up, sent whenever either changes. */
  | ({ type: "birrcheck:status"; databaseUp: boolean } & WorkersReady)
  /** Every worker's metrics, merged, for the scrape `id` this worker asked for; null when they did not come. */
  | { type: "birrcheck:metrics"; id: number; text: string | null };

/** What a worker tells its primary. */
export type ToPrimary =
  /** It listens for messages and waits for the database's URL. */
  | { type: "birrcheck:database-wanted" }
  /** It listens: connections may come. */
  | { type: "birrcheck:serving" }
  /** Its event loop turns; sent every second once it serves. */
  | { type: "birrcheck:alive" }
  /** GET /metrics arrived: asks for every worker's metrics. */
  | { type: "birrcheck:metrics"; id: number };

/**
 * The channel also carries Node's and prom-client's own messages: only ours pass, told apart by their
 * `type` prefix (both ends are this codebase, so the shape after it is trusted).
 */
export function isOurs<T extends { type: string }>(message: unknown): message is T {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === "string" && type.startsWith("birrcheck:");
}
