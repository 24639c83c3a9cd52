import type { EntityManager, Knex } from "@mikro-orm/postgresql";

/**
 * Runs one statement (knex-style `?` placeholders) and returns its rows. Unlike `em.execute`, which quotes
 * every value into the SQL text, the values go to PostgreSQL as parameters; inside a transaction the
 * statement runs on the transaction's connection. MikroORM's errors are the same as the ORM's own.
 */
export async function plainQuery<R extends object>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<R[]> {
  const knex = em.getTransactionContext() ?? em.getConnection().getKnex();
  try {
    const result: { rows: R[] } = await knex.raw(sql, params as Knex.RawBinding[]);
    return result.rows;
  } catch (error) {
    throw em.getDriver().convertException(error instanceof Error ? error : new Error(String(error)));
  }
}
