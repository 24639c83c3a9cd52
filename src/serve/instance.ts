import cluster from "node:cluster";
import { startService } from "../compose.js";
import type { Config } from "../config.js";
import { createDatabaseIfMissing, EmbeddedDatabaseBusyError } from "../db/embedded.js";
import type { Logger } from "../logger.js";
import { createMetrics } from "../metrics/registry.js";
import { mergedScrape } from "./cluster-metrics.js";
import type { DatabaseAnswer } from "./first-worker.js";
import { batchedLeadSender, leadMessagesIn } from "./lead-messages.js";
import { clusterPeerLeads } from "./peer-leads.js";

/**
 * One serving process: the whole service on its own, or one worker of a cluster (src/serve/primary.ts),
 * which then collapses identical verifications with its peers through the primary. The first worker gets
 * its database from the primary (`database`), and creates the service's database in an embedded server.
 */
export async function runInstance(
  given: Config,
  logger: Logger,
  database?: Promise<DatabaseAnswer>,
): Promise<void> {
  const peers = cluster.isWorker
    ? clusterPeerLeads(batchedLeadSender((batch) => process.send?.(batch)))
    : undefined;
  if (peers) process.on("message", (ipc) => leadMessagesIn(ipc).forEach(peers.receive));
  try {
    const answer = await database;
    if (answer?.embedded) await createDatabaseIfMissing(answer.url);
    const config = answer ? { ...given, databaseUrl: answer.url } : given;
    // The embedded PostgreSQL keeps dying or cannot be restarted: nothing here can be served any more, and a
    // non-zero exit is what makes a supervisor start everything afresh (the next start cleans up).
    const service = await startService(config, logger, {
      onDatabaseLost: () => process.exit(1),
      ...(peers ? { peers, metrics: mergedScrape(createMetrics()) } : {}),
    });
    if (service.bootstrapped) printFirstRunKey(service.url, service.bootstrapped.key);

    // One drain per process: in a cluster a worker gets the terminal's SIGINT and then its primary's SIGTERM.
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
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
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
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
