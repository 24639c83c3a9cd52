import type { Worker } from "node:cluster";

/**
 * The first cluster worker is forked while the primary is still starting the embedded PostgreSQL, so that
 * loading its code (most of a start) overlaps the database's start. Once loaded it asks for the URL (a
 * message sent before it listens would be lost) and the primary answers when the database is up.
 */
const TAG = "birrcheck:database";

/** Set in the environment of a worker that must wait for the URL. */
export const DATABASE_FROM_PRIMARY = "BIRRCHECK_DATABASE_FROM_PRIMARY";

/** The primary's side: answers the worker's question once `url` is known. */
export function answerDatabaseUrl(worker: Worker, url: Promise<string>): void {
  const ask = (message: unknown) => {
    if ((message as { tag?: unknown } | null)?.tag !== TAG) return;
    worker.off("message", ask);
    url.then(
      (known) => worker.isConnected() && worker.send({ tag: TAG, url: known }),
      () => undefined,
    );
  };
  worker.on("message", ask);
}

/** The worker's side: the URL, asked of the primary. */
export function databaseUrlFromPrimary(): Promise<string> {
  return new Promise((resolve) => {
    const receive = (message: unknown) => {
      const { tag, url } = (message ?? {}) as { tag?: unknown; url?: unknown };
      if (tag !== TAG || typeof url !== "string") return;
      process.off("message", receive);
      resolve(url);
    };
    process.on("message", receive);
    process.send?.({ tag: TAG });
  });
}
