import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// The layering rules of CONTRIBUTING.md ("Layers"), checked on the import statements themselves: every
// relative import (static, `export … from`, side-effect and dynamic) is resolved to the repository file it
// names ("./x.js" → x.ts, a folder → its index.ts), and each rule lists the imports that break it.

const ROOT = path.resolve(import.meta.dirname, "..");
// The composition root and the process entry are the only src/ files allowed to know the hosts.
const COMPOSITION_ROOTS = new Set(["src/compose.ts", "src/main.ts"]);

/** One resolved import: `file` (repository-relative) imports `target` (repository-relative) as `specifier`. */
interface Import {
  file: string;
  specifier: string;
  target: string;
}

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

const IMPORT_PATTERNS = [
  /\bfrom\s+["']([^"']+)["']/g, // import … from "x", export … from "x"
  /\bimport\s+["']([^"']+)["']/g, // import "x"
  /\bimport\(\s*["']([^"']+)["']\s*\)/g, // import("x")
];

/** The repository file a relative specifier names; bare specifiers (packages, node:) are not ours. */
function resolve(file: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const target = path.normalize(path.join(path.dirname(file), specifier));
  if (target.endsWith(".js")) return `${target.slice(0, -3)}.ts`;
  if (!path.extname(target) && existsSync(path.join(ROOT, target, "index.ts"))) {
    return path.join(target, "index.ts");
  }
  return target;
}

async function importsOf(file: string): Promise<Import[]> {
  const source = await readFile(path.join(ROOT, file), "utf8");
  return IMPORT_PATTERNS.flatMap((pattern) =>
    [...source.matchAll(pattern)].flatMap((match) => {
      const specifier = match[1] ?? "";
      const target = resolve(file, specifier);
      return target ? [{ file, specifier, target }] : [];
    }),
  );
}

/** "src/engine" matches src/engine/… and a file "src/logger.ts" matches itself. */
function under(file: string, ...places: string[]): boolean {
  return places.some((place) => file === place || file.startsWith(`${place}/`));
}

let imports: Import[];
beforeAll(async () => {
  const files = (await Promise.all(["src", "api", "bot", "bench", "fakes"].map(sourceFiles))).flat();
  imports = (await Promise.all(files.map(importsOf))).flat();
});

/** Every import from a file in `from` (but not in `except`) to a file in `to`, as "file imports specifier". */
function offenders(rule: { from: string[]; to: string[]; except?: (i: Import) => boolean }): string[] {
  return imports
    .filter((i) => under(i.file, ...rule.from) && under(i.target, ...rule.to) && !rule.except?.(i))
    .map((i) => `${i.file} imports ${i.specifier}`);
}

describe("architecture", () => {
  it("the resolver finds the imports it checks", () => {
    // A broken resolver would let every rule pass: it must see what is known to be there.
    expect(imports).toContainEqual({
      file: "src/compose.ts",
      specifier: "../api/app.js",
      target: "api/app.ts",
    });
    expect(imports.some((i) => i.file.startsWith("src/engine/") && i.target === "src/banks/codes.ts")).toBe(
      true,
    );
  });

  it("src/ never imports api/, bot/, test/ or fakes/ (api/ and bot/ depend on src/, not the reverse)", () => {
    expect(
      offenders({
        from: ["src"],
        to: ["api", "bot", "test", "fakes"],
        except: (i) => COMPOSITION_ROOTS.has(i.file),
      }),
    ).toEqual([]);
  });

  it("production code (api/, bot/) imports nothing from test/ or fakes/", () => {
    expect(offenders({ from: ["api", "bot"], to: ["test", "fakes"] })).toEqual([]);
  });

  it("the engine imports neither the API, the bot nor the simulator (the sandbox is handed to it)", () => {
    expect(offenders({ from: ["src/engine"], to: ["api", "bot", "src/simulator"] })).toEqual([]);
  });

  it("the engine reaches no fake bank through any chain of imports", () => {
    // The banks' imitations live beside their adapters (src/banks/<code>/imitation.ts): the engine may use
    // the adapters, never the imitations or the simulator they run in.
    const fake = (file: string) => under(file, "src/simulator") || file.endsWith("/imitation.ts");
    const parent = new Map<string, string | null>(); // file → the file it was reached from
    const queue = [...new Set(imports.filter((i) => under(i.file, "src/engine")).map((i) => i.file))];
    for (const file of queue) parent.set(file, null);
    const chains: string[] = [];
    for (let at = 0; at < queue.length; at++) {
      const file = queue[at] as string;
      for (const { target } of imports.filter((i) => i.file === file)) {
        if (parent.has(target)) continue;
        parent.set(target, file);
        if (!fake(target)) {
          queue.push(target);
          continue;
        }
        const chain = [target];
        for (let step: string | null | undefined = file; step; step = parent.get(step)) chain.unshift(step);
        chains.push(chain.join(" → "));
      }
    }
    expect(chains).toEqual([]);
  });

  it("the API and the bot import no database entities (the engine and the services return plain records)", () => {
    expect(offenders({ from: ["api", "bot"], to: ["src/db/entities"] })).toEqual([]);
  });

  it("banks import nothing from src/receipts (PDF and text reading sit below both: src/pdf, src/reading)", () => {
    expect(offenders({ from: ["src/banks"], to: ["src/receipts"] })).toEqual([]);
  });

  it("entities import no service: nothing from src/ outside src/db", () => {
    expect(
      offenders({ from: ["src/db/entities"], to: ["src"], except: (i) => under(i.target, "src/db") }),
    ).toEqual([]);
  });

  it("infrastructure (src/metrics, src/logger.ts, src/errors.ts) imports nothing from the engine", () => {
    expect(
      offenders({ from: ["src/metrics", "src/logger.ts", "src/errors.ts"], to: ["src/engine"] }),
    ).toEqual([]);
  });

  it("bench/ imports no test harness: the fakes both use are in fakes/", () => {
    // The receipt corpus (test/fixtures/receipts/corpus) is data with its loader and scorer, shared on purpose.
    expect(
      offenders({ from: ["bench"], to: ["test"], except: (i) => under(i.target, "test/fixtures") }),
    ).toEqual([]);
  });
});
