import pg from "pg";

/**
 * Whether the database answers `select 1` within `timeoutMs`, asked on a connection of its own and closed
 * after: a probe never holds a pooled connection, so probes against a stalled server cannot drain the pool
 * the requests need. Every wait (connecting, the query) is bounded by what is left of `timeoutMs`.
 */
export async function databaseAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: left(),
    // No statement_timeout (PgBouncer refuses it at start-up): query_timeout below gives up on a stall.
    keepAlive: true,
    application_name: "birrcheck readiness probe",
  });
  // A socket error after the answer (the server going away) is no concern of the probe's, and an
  // unheard "error" event would end the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
    // pg reads a per-query query_timeout, which its types do not declare.
    const probe: pg.QueryConfig & { query_timeout: number } = { text: "select 1", query_timeout: left() };
    await client.query(probe);
    return true;
  } catch {
    return false;
  } finally {
    // With a query still unanswered pg destroys the socket instead of waiting for a goodbye.
    void client.end().catch(() => undefined);
  }
}
