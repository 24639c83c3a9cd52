import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { mkdir, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, startCommand } from "./service.js";

/** Built commits, one directory each: a second A/B run against the same commit installs nothing. */
const CACHE = path.join(tmpdir(), "birrcheck-bench-builds");
/** Written last: a directory without it is an interrupted build, built again. */
const BUILT = ".bench-built";
/** Builds kept, most recently used first (each holds its own node_modules, ~700 MB). */
const KEEP = 2;
/** A worktree's name: its build's, this, and the pid of the bench that builds it. */
const WORKTREE = ".worktree-";

export interface OtherBuild {
  commit: string;
  /** Its short commit hash. */
  name: string;
  dir: string;
  cached: boolean;
}

/**
 * Another commit built as `npm ci` builds it (its `prepare`; its `npm run build` if that left no entry),
 * in a git worktree that is removed once the build is copied out as hard links into the cache, keyed by
 * the commit and the bench's Node (native modules are built for it).
 */
export async function otherBuild(
  ref: string,
  work: string,
  log: (message: string) => void,
  defer: (step: () => Promise<unknown>) => void,
): Promise<OtherBuild> {
  const commit = await run("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], ROOT).then(
    (out) => out.trim(),
    () => "",
  );
  if (!commit) throw new Error(`--against ${ref}: no such commit`);
  await sameSchema(ref, commit);
  const short = commit.slice(0, 7);
  const dir = path.join(CACHE, `${commit}-node${process.versions.node}`);
  if (existsSync(path.join(dir, BUILT))) {
    const now = new Date();
    await utimes(path.join(dir, BUILT), now, now);
    log(`${short}: built before, in ${dir}: install skipped`);
    return { commit, name: short, dir, cached: true };
  }

  await rm(dir, { recursive: true, force: true });
  await mkdir(CACHE, { recursive: true });
  await removeAbandonedWorktrees();
  const worktree = `${dir}${WORKTREE}${process.pid}`;
  defer(() => removeWorktree(worktree));
  const logFile = path.join(work, `build-${short}.log`);
  try {
    await run("git", ["worktree", "add", "--detach", worktree, commit], ROOT);
    log(`${short}: npm ci in ${worktree} (its prepare builds it; log ${logFile})`);
    await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], worktree, logFile, defer);
    const { entry } = startCommand(worktree);
    if (!existsSync(path.join(worktree, entry))) {
      log(`${short}: npm ci left no ${entry}: npm run build`);
      await run("npm", ["run", "build"], worktree, logFile, defer);
    }
    if (!existsSync(path.join(worktree, entry))) throw new Error(`${short}: no ${entry} after npm run build`);
    await run("cp", ["-al", worktree, dir], ROOT);
    await rm(path.join(dir, ".git"), { force: true });
    await writeFile(path.join(dir, BUILT), `${commit}\n`);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await removeWorktree(worktree);
  }
  log(`${short}: built in ${dir} (cached for the next run against it)`);
  await forgetOldBuilds(dir);
  return { commit, name: short, dir, cached: false };
}

/**
 * The bench migrates both builds' databases and writes their tenants with this build's code: that holds
 * when the other commit's migrations are this working tree's, or their beginning. Migrations only add
 * (CONTRIBUTING.md), so the older build runs on the newer schema as it does during a rolling upgrade;
 * a change to a migration the other commit has, or an uncommitted one, cannot be compared.
 */
async function sameSchema(ref: string, commit: string): Promise<void> {
  const changed = await run(
    "git",
    ["diff", "--name-only", "--diff-filter=DMRT", commit, "--", "migrations/Migration*.ts"],
    ROOT,
  );
  const added = await run("git", ["ls-files", "--others", "--exclude-standard", "--", "migrations"], ROOT);
  const differing = `${changed}${added}`.trim();
  if (differing) {
    throw new Error(
      `--against ${ref}: its database schema differs from this build's, and the bench sets up both ` +
        `databases with this build's migrations; cannot compare. Differing:\n${differing}`,
    );
  }
}

async function removeWorktree(worktree: string): Promise<void> {
  await run("git", ["worktree", "remove", "--force", worktree], ROOT).catch(() => undefined);
  await rm(worktree, { recursive: true, force: true });
}

/** Worktrees of benches that were killed outright (SIGKILL) while building, and could not remove them. */
async function removeAbandonedWorktrees(): Promise<void> {
  for (const name of await readdir(CACHE)) {
    const pid = Number(name.split(WORKTREE)[1]);
    if (!pid || alive(pid)) continue;
    await removeWorktree(path.join(CACHE, name));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function forgetOldBuilds(current: string): Promise<void> {
  const builds: { dir: string; used: number }[] = [];
  for (const name of await readdir(CACHE)) {
    const dir = path.join(CACHE, name);
    const marker = await stat(path.join(dir, BUILT)).catch(() => null);
    if (marker && dir !== current) builds.push({ dir, used: marker.mtimeMs });
  }
  builds.sort((a, b) => b.used - a.used);
  for (const { dir } of builds.slice(KEEP - 1)) await rm(dir, { recursive: true, force: true });
}

/**
 * Runs a command to its end and gives its standard output (with `logFile`, appended there instead, with
 * its errors). npm runs on the bench's Node, without the variables of the `npm run` that started the bench
 * (npm_config_local_prefix would point it back at this working tree). With `defer`, an interrupted bench
 * ends the command before its worktree is removed.
 */
function run(
  command: string,
  args: string[],
  cwd: string,
  logFile?: string,
  defer?: (step: () => Promise<unknown>) => void,
): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("npm_") && name !== "INIT_CWD"),
  );
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ""}`;
  env.NODE = process.execPath;
  const out = logFile ? openSync(logFile, "a") : "pipe";
  // In a process group of its own, so that an interrupted bench ends it with whatever it has started.
  const child = spawn(command, args, {
    cwd,
    env,
    detached: defer !== undefined,
    stdio: ["ignore", out, logFile ? out : "pipe"],
  });
  if (typeof out === "number") closeSync(out);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const done = new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("close", (code) => resolve(code));
  });
  // Its work is thrown away with the worktree: nothing to wait for (npm ci takes a minute to roll back).
  defer?.(async () => {
    if (child.pid && child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid, "SIGKILL");
    await done;
  });
  return done.then((code) => {
    if (code === 0) return stdout;
    const output = logFile ? readFileSync(logFile, "utf8") : stderr;
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed:\n${output.slice(-3000)}`);
  });
}
