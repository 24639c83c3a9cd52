import type { EntityManager, Knex } from "@mikro-orm/postgresql";

/**
 * Runs one statement (knex-style `?` placeholders) on a pooled connection of `em` and calls `onRow` for
 * each row in order as it arrives, through a server-side cursor (knex's stream, pg-query-stream): no
 * whole result is held, however many rows it has.
 */
export async function eachRow(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  onRow: (row: Record<string, unknown>) => void,
): Promise<void> {
  const rows: AsyncIterable<Record<string, unknown>> = em
    .getConnection()
    .getKnex()
    .raw(sql, params as Knex.RawBinding[])
    .stream();
  for await (const row of rows) onRow(row);
}
