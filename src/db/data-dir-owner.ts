import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { processInfo } from "./process-state.js";

/**
 * `<DATA_DIR>/service.pid` names the process that started the embedded PostgreSQL (a service or the admin
 * CLI). PostgreSQL's own postmaster.pid only says a server runs; this file says whether the process it
 * belongs to is still there, which is what tells a busy data directory from an orphan left by a crash.
 */
const OWNER_FILE = "service.pid";

interface Owner {
  pid: number;
  /** Start time of the owner (Linux): a pid reused by an unrelated process is not the owner. */
  started: string | null;
}

/**
 * The record as claimOwnership writes it, or null. Checked by hand rather than with zod: the primary of
 * worker threads reads this file and loads no library.
 */
function ownerRecord(value: unknown): Owner | null {
  const { pid, started } = (value ?? {}) as Record<string, unknown>;
  const wellFormed =
    typeof pid === "number" &&
    Number.isInteger(pid) &&
    pid > 0 &&
    (started === null || typeof started === "string");
  return wellFormed ? { pid, started } : null;
}

export type OwnerState = { kind: "none" } | { kind: "dead" } | { kind: "alive"; pid: number };

/** Who owns the data directory: nobody on record, a dead process, or a live one other than us. */
export async function ownerOf(root: string): Promise<OwnerState> {
  let owner: Owner | null;
  try {
    owner = ownerRecord(JSON.parse(await readFile(path.join(root, OWNER_FILE), "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "none" };
    owner = null;
  }
  // Half-written or foreign content: its writer died mid-write, it owns nothing.
  if (owner === null) return { kind: "dead" };
  // Our own pid on record: a container restarted with the same pids, the previous owner is gone.
  if (owner.pid === process.pid) return { kind: "dead" };
  const info = await processInfo(owner.pid);
  const same = owner.started === null || info.started === null || info.started === owner.started;
  return info.state === "alive" && same ? { kind: "alive", pid: owner.pid } : { kind: "dead" };
}

/** Records this process as the owner; the returned function removes the record (on a clean stop). */
export async function claimOwnership(root: string): Promise<() => Promise<void>> {
  const file = path.join(root, OWNER_FILE);
  const owner: Owner = { pid: process.pid, started: (await processInfo(process.pid)).started };
  // Written aside and renamed, so a reader never sees half a record.
  const draft = `${file}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(owner)}\n`);
  await rename(draft, file);
  return () => rm(file, { force: true });
}
