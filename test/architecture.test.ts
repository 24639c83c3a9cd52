import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
// The composition root and the process entry are the only src/ files allowed to know the hosts.
const COMPOSITION_ROOTS = new Set(["src/compose.ts", "src/main.ts"]);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(relative);
      return Promise.resolve(entry.name.endsWith(".ts") ? [relative] : []);
    }),
  );
  return nested.flat();
}

describe("architecture", () => {
  it("src/ never imports api/, bot/ or test/ (api/ and bot/ depend on src/, not the reverse)", async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles("src")) {
      if (COMPOSITION_ROOTS.has(file)) continue;
      const source = await readFile(path.join(ROOT, file), "utf8");
      for (const match of source.matchAll(/from\s+["']([^"']+)["']/g)) {
        const target = path.normalize(path.join(path.dirname(file), match[1] ?? ""));
        if (/^(api|bot|test)(\/|$)/.test(target)) offenders.push(`${file} imports ${match[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
