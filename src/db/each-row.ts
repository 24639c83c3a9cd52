import type { EntityManager, Knex } from "@mikro-orm/postgresql";

/**
 * Runs one statement (knex-style `?` placeholders) and calls `onRow` for each row in order as it arrives,
 * through a server-side cursor (knex's stream, pg-query-stream): no whole result is held, however many rows
 * it has. It runs in a read-only transaction of its own, which holds its connection from the pool's limits
 * to the last row: knex's stream outside one releases a connection it failed to get when the pool times out.
 */
export async function eachRow(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  onRow: (row: Record<string, unknown>) => void,
): Promise<void> {
  const knex = em.getConnection().getKnex();
  await knex.transaction(
    async (trx) => {
      const rows: AsyncIterable<Record<string, unknown>> = trx.raw(sql, params as Knex.RawBinding[]).stream();
      for await (const row of rows) onRow(row);
    },
    { readOnly: true },
  );
}
