import pg from "pg";

export interface HeldLock {
  /** Settles when the lock is lost (its connection or its renewals failed: database restart, network). */
  lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes a PostgreSQL session advisory lock on a connection of its own, held until released or until the
 * connection dies (PostgreSQL then frees the lock, so another process can take it). Null when another
 * session holds it.
 */
export async function tryHoldAdvisoryLock(databaseUrl: string, name: string): Promise<HeldLock | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  let markLost: () => void = () => undefined;
  const lost = new Promise<void>((resolve) => {
    markLost = resolve;
  });
  client.on("error", () => markLost());
  client.on("end", () => markLost());
  await client.connect();
  try {
    const result = await client.query<{ held: boolean }>(
      "select pg_try_advisory_lock(hashtext($1)) as held",
      [name],
    );
    if (result.rows[0]?.held === false) {
      await client.end();
      return null;
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    lost,
    async release() {
      await client.end().catch(() => undefined);
    },
  };
}
