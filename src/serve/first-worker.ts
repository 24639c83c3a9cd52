import type { Config } from "../config.js";
import { type MessageEnd, toPrimary } from "./message-end.js";

/**
 * How a primary and its worker threads start. The primary reads no configuration (it loads no library, zod
 * included: README, "Production"): its first worker reads and validates it, and its first message hands the primary what
 * supervising needs. The primary then starts the embedded PostgreSQL while the worker loads the rest of its
 * code, and answers with the database's URL.
 */
const TAG = "birrcheck:database";

/** Set in the environment of the first worker, which hands over the settings and waits for the URL. */
export const DATABASE_FROM_PRIMARY = "BIRRCHECK_DATABASE_FROM_PRIMARY";

/** What the primary needs of the configuration. */
export type SupervisionSettings = Pick<
  Config,
  "webConcurrency" | "databaseUrl" | "dataDir" | "logLevel" | "verifyDeadlineMs" | "port" | "host"
>;

export interface DatabaseAnswer {
  url: string;
  /** The embedded server the primary started: the service's database in it may still have to be created. */
  embedded: boolean;
}

/** The primary's side: the first worker's settings, or null when it exits first (it said why on stderr). */
export function settingsFrom(
  worker: MessageEnd & { once(event: "exit", listener: () => void): unknown },
): Promise<SupervisionSettings | null> {
  return new Promise((resolve) => {
    const receive = (message: unknown) => {
      const { tag, settings } = (message ?? {}) as { tag?: unknown; settings?: SupervisionSettings };
      if (tag !== TAG || settings === undefined) return;
      worker.off("message", receive);
      resolve(settings);
    };
    worker.on("message", receive);
    worker.once("exit", () => resolve(null));
  });
}

/** The primary's side: answers the first worker once the database is known. */
export function answerDatabase(worker: MessageEnd, answer: Promise<DatabaseAnswer>): void {
  answer.then(
    (known) => worker.postMessage({ tag: TAG, ...known }),
    () => undefined,
  );
}

/** The first worker's side: hands over the settings at once; resolves with the primary's answer. */
export function askForDatabase(config: Config): Promise<DatabaseAnswer> {
  const settings: SupervisionSettings = {
    webConcurrency: config.webConcurrency,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logLevel: config.logLevel,
    verifyDeadlineMs: config.verifyDeadlineMs,
    port: config.port,
    host: config.host,
  };
  const primary = toPrimary();
  return new Promise((resolve) => {
    const receive = (message: unknown) => {
      const { tag, url, embedded } = (message ?? {}) as { tag?: unknown; url?: unknown; embedded?: unknown };
      if (tag !== TAG || typeof url !== "string") return;
      primary.off("message", receive);
      resolve({ url, embedded: embedded === true });
    };
    primary.on("message", receive);
    primary.postMessage({ tag: TAG, settings });
  });
}
