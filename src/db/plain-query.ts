import type { EntityManager } from "@mikro-orm/postgresql";
import type pg from "pg";

const NUMBERED = new Map<string, string>();

/** knex-style `?` placeholders as pg's `$1, $2, …` (the statements here hold no literal "?"). */
export function numbered(sql: string): string {
  let text = NUMBERED.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (NUMBERED.size < 100) NUMBERED.set(sql, text);
  }
  return text;
}

/**
 * Runs one statement (knex-style `?` placeholders) and returns its rows, as `em.execute` does, but straight
 * on a pooled pg connection with the values sent as parameters: for the verification's two statements,
 * em.execute spent about a tenth of the service's CPU in MikroORM and knex, quoting every value into the
 * SQL text (issue 18). The pool, its limits and MikroORM's errors are the same; inside a transaction the
 * statement must run on the transaction's connection, so there it is em.execute.
 */
export async function plainQuery<R extends object>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<R[]> {
  if (em.isInTransaction()) return em.execute<R[]>(sql, [...params]);
  const pool = em.getConnection().getKnex().client;
  let client: pg.Client | undefined;
  try {
    client = (await pool.acquireConnection()) as pg.Client;
    return (await client.query<R>(numbered(sql), [...params])).rows;
  } catch (error) {
    throw em.getDriver().convertException(error instanceof Error ? error : new Error(String(error)));
  } finally {
    if (client) await pool.releaseConnection(client);
  }
}
