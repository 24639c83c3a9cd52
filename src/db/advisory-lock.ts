import pg from "pg";

export interface HeldLock {
  /** Settles when the lock is lost with its connection (database restart, network). */
  lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes a PostgreSQL session advisory lock on a connection of its own, held until released or until the
 * connection dies (PostgreSQL then frees the lock, so another process can take it). Null when another
 * session holds it.
 */
export function tryHoldAdvisoryLock(databaseUrl: string, name: string): Promise<HeldLock | null> {
  return holdLock(databaseUrl, name, "pg_try_advisory_lock");
}

/** As tryHoldAdvisoryLock, but waits while another session holds it. */
export async function holdAdvisoryLock(databaseUrl: string, name: string): Promise<HeldLock> {
  const lock = await holdLock(databaseUrl, name, "pg_advisory_lock");
  if (!lock) throw new Error(`the advisory lock ${name} was not granted`);
  return lock;
}

async function holdLock(
  databaseUrl: string,
  name: string,
  take: "pg_try_advisory_lock" | "pg_advisory_lock",
): Promise<HeldLock | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  let markLost: () => void = () => undefined;
  const lost = new Promise<void>((resolve) => {
    markLost = resolve;
  });
  client.on("error", () => markLost());
  client.on("end", () => markLost());
  await client.connect();
  try {
    // pg_advisory_lock returns void: reaching the next line means it is held.
    const result = await client.query<{ held: boolean | "" }>(`select ${take}(hashtext($1)) as held`, [name]);
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
