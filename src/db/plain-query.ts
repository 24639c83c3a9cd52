import type { EntityManager, Knex, MikroORM } from "@mikro-orm/postgresql";

// A name per statement text: PostgreSQL then parses and plans it once per connection instead of at every
// execution, its CPU that the service shares with it (knex hands `options` to pg's query config). A
// statement must list the columns it returns, so that a later migration cannot change a prepared result.
const NAMES = new Map<string, string>();
/** The hot path has a handful of statements; past this many texts the rest run unnamed. */
const MAX_NAMED = 50;

/** The configurations of ORMs behind a transaction-mode pooler, whose server connections change under them. */
const UNNAMED = new WeakSet<object>();

/** The ORM's statements run unnamed: a statement prepared on one server connection is unknown on the next. */
export function statementsUnnamed(orm: MikroORM): void {
  UNNAMED.add(orm.config);
}

function nameOf(sql: string): string | undefined {
  let name = NAMES.get(sql);
  if (name === undefined && NAMES.size < MAX_NAMED) {
    name = `birrcheck_${NAMES.size + 1}`;
    NAMES.set(sql, name);
  }
  return name;
}

/**
 * Runs one statement (knex-style `?` placeholders) and returns its rows. Unlike `em.execute`, which quotes
 * every value into the SQL text, the values go to PostgreSQL as parameters of a prepared statement; inside
 * a transaction the statement runs on the transaction's connection. MikroORM's errors are the same as the
 * ORM's own.
 */
export async function plainQuery<R extends object>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<R[]> {
  const knex = em.getTransactionContext() ?? em.getConnection().getKnex();
  const name = UNNAMED.has(em.config) ? undefined : nameOf(sql);
  try {
    const query = knex.raw(sql, params as Knex.RawBinding[]);
    const result: { rows: R[] } = await (name ? query.options({ name }) : query);
    return result.rows;
  } catch (error) {
    throw em.getDriver().convertException(error instanceof Error ? error : new Error(String(error)));
  }
}
