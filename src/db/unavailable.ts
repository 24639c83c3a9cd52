// SQLSTATEs of a server that cannot serve: admin shutdown, crash shutdown, cannot connect now, connection
// failures, 53300 (too_many_connections: a server back from a stall still holds the backends of the
// connections that gave up on it), and 57014 (query_canceled: DB_STATEMENT_TIMEOUT_MS ran out).
const UNAVAILABLE_SQLSTATES = ["57P01", "57P02", "57P03", "08006", "08001", "53300", "57014"];
const NETWORK_CODES = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"];
// Messages of pg, knex and tarn that carry no code: a dropped or timed-out connection, a Unix socket that
// is gone with its server ("connect ENOENT …/.s.PGSQL.5432": ENOENT alone is any missing file), pg's
// query_timeout on a stalled server, the pool's acquire timeout ("Knex: Timeout acquiring a connection"),
// knex refusing the next statement of a transaction that such a timeout already ended (a flush's BEGIN
// timed out under its INSERT: "Transaction query already complete"), and pg refusing a query on a
// connection that such a failure already broke ("… and is not queryable").
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connect ECONNREFUSED|connect ENOENT|timeout exceeded when trying to connect|Query read timeout|Timeout acquiring a connection|^timeout expired$|Transaction query already complete|is not queryable/i;

/**
 * Whether an error means the database cannot answer now (down, stalled, out of connections), as opposed to
 * a bug or a bad query: the API answers it 503 and the bot asks to try again. MikroORM wraps driver errors
 * but keeps their code and message.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.includes(code) || NETWORK_CODES.includes(code))) {
    return true;
  }
  return UNAVAILABLE_MESSAGES.test(error.message);
}

/** The statement cancelled by DB_STATEMENT_TIMEOUT_MS: the server answered, the statement was slow. */
const STATEMENT_TIMEOUT = "57014";

/**
 * Whether an error means the server cannot be reached now (no connection, the pool could not get one, a
 * stalled server that never answered), as opposed to one slow statement on a server that cancelled it.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  return (error as { code?: unknown }).code !== STATEMENT_TIMEOUT;
}
