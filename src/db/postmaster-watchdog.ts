import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { Socket } from "node:net";

/**
 * "Die with the parent" for the embedded PostgreSQL. Linux's PR_SET_PDEATHSIG is out of reach from Node
 * without native code, so a tiny `sh` process (about 1 MB, no polling) holds the read end of a pipe whose
 * only writer is this process. When this process ends in any way, SIGKILL included, the kernel closes
 * the pipe, `read` sees end-of-file, and the watchdog asks the postmaster named in postmaster.pid for a
 * fast shutdown (open transactions roll back). It checks first that this pid is still a server of this
 * data directory (its working directory, where /proc shows it), never signalling a reused pid. The
 * watchdog runs in its own session: a Ctrl-C or a signal to the service's process group does not end it.
 * Where it cannot run (no sh) or is killed too, the next start stops the orphan (see embedded.ts).
 */
const SCRIPT = `
while read -r line; do [ "$line" = disarm ] && exit 0; done
pid=$(head -n 1 "$1/postmaster.pid" 2>/dev/null) || exit 0
[ -n "$pid" ] || exit 0
if [ -d /proc/self ] && [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" != "$2" ]; then exit 0; fi
kill -INT "$pid" 2>/dev/null
exit 0
`;

/** The process name tests and operators see (`ps`): the script's $0. */
export const WATCHDOG_NAME = "birrcheck-pg-watchdog";

export interface Watchdog {
  /** After a clean stop: the watchdog exits without signalling anything. */
  disarm(): void;
}

export function startWatchdog(databaseDir: string): Watchdog {
  if (process.platform === "win32") return { disarm: () => undefined };
  const child = spawn("sh", ["-c", SCRIPT, WATCHDOG_NAME, databaseDir, realpathSync(databaseDir)], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  // Without sh there is no watchdog; the next start still stops an orphan.
  child.on("error", () => undefined);
  child.stdin?.on("error", () => undefined);
  // Neither the watchdog nor its pipe may keep this process's event loop alive.
  child.unref();
  if (child.stdin instanceof Socket) child.stdin.unref();
  return {
    disarm: () => {
      if (child.exitCode === null && child.signalCode === null) child.stdin?.end("disarm\n");
    },
  };
}
