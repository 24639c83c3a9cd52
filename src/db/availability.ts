import type { Logger } from "../logger.js";
import { databaseAnswers } from "./probe.js";
import { isDatabaseUnreachable } from "./unavailable.js";

/**
 * Whether this process can reach PostgreSQL, as its own statements found out. While it cannot, requests
 * that need the database are refused at once (a 503 with Retry-After) instead of each waiting out the
 * pool's acquire timeout; one probe at a time looks for the way back.
 */
export interface DatabaseAvailability {
  /** False from a failed connection until a probe is answered. */
  reachable(): boolean;
  /** Every failed statement passes here; one that says the server cannot be reached trips the gate. */
  observe(error: unknown): void;
  /** Stops probing (shutdown). */
  close(): void;
}

export interface AvailabilityOptions {
  /** The most one probe waits for its connection and its `select 1`. */
  probeTimeoutMs?: number;
  /** Between a failed probe and the next: the recovery is seen this long after it at most, plus one probe. */
  probePauseMs?: number;
  /** Told when the gate closes and when it opens again (metrics). */
  onChange?: (reachable: boolean) => void;
}

export function watchDatabaseAvailability(
  url: string,
  logger: Logger,
  { probeTimeoutMs = 1_000, probePauseMs = 100, onChange }: AvailabilityOptions = {},
): DatabaseAvailability {
  let reachable = true;
  let closed = false;
  let pause: NodeJS.Timeout | undefined;

  const probe = async () => {
    pause = undefined;
    if (closed) return;
    if (await databaseAnswers(url, probeTimeoutMs)) {
      reachable = true;
      logger.info("database reachable again: serving");
      onChange?.(true);
      return;
    }
    if (!closed) pause = setTimeout(probe, probePauseMs);
  };

  return {
    reachable: () => reachable,
    observe(error) {
      if (!reachable || closed || !isDatabaseUnreachable(error)) return;
      reachable = false;
      logger.warn(
        { err: error },
        "database unreachable: refusing requests that need it until a probe answers",
      );
      onChange?.(false);
      void probe();
    },
    close() {
      closed = true;
      clearTimeout(pause);
    },
  };
}
