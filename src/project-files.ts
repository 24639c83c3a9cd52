import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder holding package.json, found from this module's own place, which differs by how the service
 * runs: src/ (tsx), dist/src/ (tsc's output) or dist/service/ (the bundle `npm start` runs). Files read at
 * run time (bot locales, the /docs page, the QR thread, the OCR model) are named from here, once, so they
 * stay where they are in the repository and are never copied.
 */
export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A file of the repository by its path from the root, e.g. projectFile("bot", "locales"). */
export function projectFile(...parts: string[]): string {
  return path.join(PROJECT_ROOT, ...parts);
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${from}`);
  }
}
