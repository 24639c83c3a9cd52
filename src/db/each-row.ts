import type { EntityManager, Knex } from "@mikro-orm/postgresql";

/**
 * Runs one statement (knex-style `?` placeholders) and calls `onRow` for each row in order as it arrives,
 * through a server-side cursor (knex's stream, pg-query-stream): no whole result is held, however many rows
 * it has. It runs in a read-only transaction of its own, which takes its connection within the pool's
 * limits before the cursor starts (knex's stream outside one, when the pool timed out, released a
 * connection it never got).
 */
export async function eachRow(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  onRow: (row: Record<string, unknown>) => void,
): Promise<void> {
  // A cursor is not covered by pg's query_timeout: a stalled server would hold it for good. The same
  // limit, the pool's, applies here to each wait for the next row.
  const limitMs = readTimeoutMs(em);
  await em
    .getConnection()
    .getKnex()
    .transaction(
      async (trx) => {
        const stream = trx.raw(sql, params as Knex.RawBinding[]).stream();
        let timer: NodeJS.Timeout | undefined;
        const armed = () => {
          clearTimeout(timer);
          if (limitMs) timer = setTimeout(() => stream.destroy(new Error("Query read timeout")), limitMs);
        };
        try {
          armed();
          for await (const row of stream as AsyncIterable<Record<string, unknown>>) {
            armed();
            onRow(row);
          }
        } finally {
          clearTimeout(timer);
        }
      },
      { readOnly: true },
    );
}

/** pg's query_timeout of the ORM's pooled connections (src/db/connection-limits.ts), if they have one. */
function readTimeoutMs(em: EntityManager): number | undefined {
  const options = em.config.get("driverOptions") as { connection?: { query_timeout?: number } } | undefined;
  return options?.connection?.query_timeout;
}
