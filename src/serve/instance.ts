import { startService } from "../compose.js";
import type { Config } from "../config.js";
import { createDatabaseIfMissing, EmbeddedDatabaseBusyError } from "../db/embedded.js";
import type { Logger } from "../logger.js";
import { createMetrics } from "../metrics/registry.js";
import type { DatabaseAnswer } from "./first-worker.js";
import { batchedLeadSender, leadMessagesIn } from "./lead-messages.js";
import { leadSlots } from "./lead-slots.js";
import { STOP_MESSAGE, toPrimary, type WorkerThreadData } from "./message-end.js";
import { workerPeerLeads } from "./peer-leads.js";
import { relayedConnections } from "./relayed-connections.js";
import { loadReusePort, sharedPort } from "./shared-port.js";
import { mergedScrape } from "./worker-metrics.js";

/**
 * One serving instance: the whole service in a process of its own, or one worker thread of a primary
 * (src/serve/primary.ts, `thread`), which listens on the port beside its peers (or serves the connections
 * the primary relays, where the port cannot be shared) and collapses identical verifications with its
 * peers through the primary. The first worker gets its database from the primary (`database`), and
 * creates the service's database in an embedded server.
 */
export async function runInstance(
  given: Config,
  logger: Logger,
  thread?: WorkerThreadData,
  database?: Promise<DatabaseAnswer>,
): Promise<void> {
  const primary = thread ? toPrimary() : undefined;
  const peers =
    primary && thread
      ? workerPeerLeads(
          batchedLeadSender((batch) => primary.postMessage(batch)),
          leadSlots(thread.leadCounts, thread.row, given.webConcurrency),
        )
      : undefined;
  if (primary && peers) primary.on("message", (ipc) => leadMessagesIn(ipc).forEach(peers.receive));
  try {
    const answer = await database;
    if (answer?.embedded) await createDatabaseIfMissing(answer.url);
    const config = answer ? { ...given, databaseUrl: answer.url } : given;
    const reusePort = thread && config.workerConnections === "shared-port" ? loadReusePort() : null;
    // The embedded PostgreSQL keeps dying or cannot be restarted: nothing here can be served any more, and a
    // non-zero exit is what makes a supervisor start everything afresh (the next start cleans up).
    const service = await startService(config, logger, {
      onDatabaseLost: () => process.exit(1),
      ...(thread && peers
        ? {
            peers,
            metrics: mergedScrape(createMetrics()),
            connections: reusePort
              ? sharedPort(config.port, config.host, thread.connections, reusePort, database !== undefined)
              : relayedConnections(thread.connections),
            databaseAlive: () => Atomics.load(thread.databaseUp, 0) === 1,
            // Only the first worker is handed the database; the others start once it has migrated.
            migrate: database !== undefined,
          }
        : {}),
    });
    if (service.bootstrapped) printFirstRunKey(service.url, service.bootstrapped.key);

    // One drain: a process alone stops on a signal, a worker thread when its primary says so.
    let stopping = false;
    const stop = (signal: NodeJS.Signals | "primary") => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    };
    if (primary) {
      primary.on("message", (message) => message === STOP_MESSAGE && stop("primary"));
    } else {
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    }
  } catch (error) {
    if (error instanceof EmbeddedDatabaseBusyError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      logger.fatal({ err: error }, "start failed");
    }
    process.exit(1);
  }
}

/** Shown once, on the terminal, never in a log line. */
function printFirstRunKey(url: string, key: string): void {
  process.stdout.write(
    [
      "",
      'Birrcheck is set up: a "Default business" with one branch and this admin API key (shown only now):',
      "",
      `  ${key}`,
      "",
      "Try it:",
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/accounts`,
      "",
      `API reference: ${url}/docs (Authorize with the key above)`,
      "",
      "",
    ].join("\n"),
  );
}
