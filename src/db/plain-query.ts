import type { EntityManager } from "@mikro-orm/postgresql";
import type pg from "pg";
import { leaseOf } from "./connection-lease.js";

const NUMBERED = new Map<string, string>();
// A name per statement text: PostgreSQL parses and plans a named statement once per connection instead of
// at every execution (its own CPU per verification, measured on the bench, was more than half the
// service's). A fixed handful of statements come here; past this many, the rest run unnamed.
const NAMES = new Map<string, string>();
const MAX_NAMED = 50;

function nameOf(text: string): string | undefined {
  let name = NAMES.get(text);
  if (name === undefined && NAMES.size < MAX_NAMED) {
    name = `birrcheck_${NAMES.size + 1}`;
    NAMES.set(text, name);
  }
  return name;
}

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
 * SQL text (issue 18), and PostgreSQL parsed and planned each anew. Connections come from the pool through
 * a lease (connection-lease.ts) that hands idle ones on to the next statement. Statements are prepared by name on each
 * connection: a statement must name the columns it returns (no `returning *`), so that a column added by a
 * later migration cannot change the result of a statement prepared before it. The pool, its limits and
 * MikroORM's errors are the same; inside a transaction the statement must run on the transaction's
 * connection, so there it is em.execute.
 */
export async function plainQuery<R extends object>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<R[]> {
  if (em.isInTransaction()) return em.execute<R[]>(sql, [...params]);
  const lease = leaseOf(em.getConnection().getKnex().client);
  let client: pg.Client | undefined;
  try {
    client = await lease.acquire();
    const text = numbered(sql);
    const name = nameOf(text);
    return (await client.query<R>({ text, values: [...params], ...(name ? { name } : {}) })).rows;
  } catch (error) {
    throw em.getDriver().convertException(error instanceof Error ? error : new Error(String(error)));
  } finally {
    if (client) lease.release(client);
  }
}
