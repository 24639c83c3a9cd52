import type { Logger } from "../logger.js";
import type { EmbeddedEvent } from "./embedded.js";

/**
 * Log lines for the embedded server's crash handling, and the hand-off when it is gone for good: the
 * process cannot serve anything then, and exiting lets a supervisor start everything afresh.
 */
export function embeddedEventHandler(logger: Logger, onLost: (error: Error) => void) {
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
        return;
      case "restarted":
        logger.warn({ pid: event.pid, ms: event.ms }, "the embedded PostgreSQL is running again");
        return;
      case "lost":
        logger.fatal({ err: event.error }, "the embedded PostgreSQL cannot be restarted");
        onLost(event.error);
        return;
    }
  };
}
