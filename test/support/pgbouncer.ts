import { type ChildProcess, spawn } from "node:child_process";
import { access, chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../src/free-port.js";
import { waitFor } from "./wait.js";

/** Debian's PgBouncer, which `npm test` installs where it can (scripts/ensure-pgbouncer.sh). */
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? "/usr/sbin/pgbouncer";

/** Why PgBouncer tests cannot run here, or null when they can. */
export async function pgbouncerMissing(): Promise<string | null> {
  try {
    await access(PGBOUNCER);
    return null;
  } catch {
    return `no PgBouncer at ${PGBOUNCER} (install Debian's pgbouncer, or set PGBOUNCER_PATH)`;
  }
}

export interface RunningPgBouncer {
  /** `target` with PgBouncer's host and port: the same database, user and password, through the pooler. */
  url: string;
  /** What PgBouncer logged, for a failing assertion's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of `target`'s server, as a deployment puts it: every client
 * transaction may get another server connection. It runs as `nobody` when the tests run as root, which
 * PgBouncer refuses to be.
 */
export async function startPgBouncer(target: string): Promise<RunningPgBouncer> {
  const server = new URL(target);
  const dir = await mkdtemp(path.join(tmpdir(), "birrcheck-pgbouncer-"));
  const port = await freePort();
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const connect = [
    `host=${server.hostname}`,
    `port=${server.port || "5432"}`,
    `user=${user}`,
    ...(password ? [`password=${password}`] : []),
  ].join(" ");
  await writeFile(path.join(dir, "users.txt"), `"${user}" ""\n`);
  await writeFile(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = ${connect}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 1000",
      "default_pool_size = 20",
      // pg sends it on every connection; PgBouncer refuses startup parameters it does not know.
      "ignore_startup_parameters = extra_float_digits",
      "",
    ].join("\n"),
  );
  await chmod(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ["-u", "nobody"] : []), "pgbouncer.ini"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => answers(url.toString()), "PgBouncer to answer", {
      seen: async () => output,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: url.toString(), output: () => output, stop };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
