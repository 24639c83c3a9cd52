import type { Logger } from "../logger.js";
import type { EmbeddedEvent } from "./embedded.js";

/** What the owner of the embedded server is told besides the log. */
export interface EmbeddedDatabaseHandlers {
  /** Gone for good (it keeps dying or cannot restart): exiting lets a supervisor start afresh. */
  onLost: (error: Error) => void;
  /** It died (false) or runs again (true): told on the event, so that no outage is too short to see. */
  onUpChange?: (up: boolean) => void;
}

/** Log lines for the embedded server's crash handling, and the owner's handlers. */
export function embeddedEventHandler(logger: Logger, { onLost, onUpChange }: EmbeddedDatabaseHandlers) {
  return (event: EmbeddedEvent): void => {
    switch (event.type) {
      case "orphan-stopped":
        logger.warn({ pid: event.pid }, "stopped the embedded PostgreSQL left running by a crashed process");
        return;
      case "died":
        logger.error(
          { pid: event.pid, code: event.code, signal: event.signal },
          "the embedded PostgreSQL died; restarting it",
        );
        onUpChange?.(false);
        return;
      case "restarted":
        logger.warn({ pid: event.pid, ms: event.ms }, "the embedded PostgreSQL is running again");
        onUpChange?.(true);
        return;
      case "lost":
        logger.fatal({ err: event.error }, "the embedded PostgreSQL cannot be restarted");
        onLost(event.error);
        return;
    }
  };
}
