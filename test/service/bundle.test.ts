import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `npm test` builds first. V8 keeps every module's source, at two bytes per character once a single
// character is beyond Latin-1: the build escapes them (scripts/build.mjs), which saved 6 MB per worker.
const SERVICE_BUNDLE = path.resolve(import.meta.dirname, "../../dist/service");

describe("the service bundle", () => {
  it("is ASCII, so V8 holds its source at one byte per character", () => {
    const files = readdirSync(SERVICE_BUNDLE).filter((file) => file.endsWith(".js"));
    expect(files.length).toBeGreaterThan(1);
    const wide = files.filter((file) =>
      /[^\0-\x7f]/.test(readFileSync(path.join(SERVICE_BUNDLE, file), "utf8")),
    );
    expect(wide).toEqual([]);
  });

  it("keeps names with a helper that leaves a function already so named alone (scripts/build.mjs)", () => {
    const sources = readdirSync(SERVICE_BUNDLE)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(SERVICE_BUNDLE, file), "utf8"));
    const helpers = sources.flatMap((source) => source.match(/var __name=[^;]*;/g) ?? []);
    expect(helpers).toHaveLength(1);
    expect(helpers[0]).toContain('target.name===value||(target.name===""&&!("prototype"in target))?target:');
    const __defProp = Object.defineProperty;
    const __name = new Function("__defProp", `${helpers[0]} return __name;`)(__defProp) as <T>(
      target: T,
      value: string,
    ) => T;
    // What the bundle's renaming makes of a class, and a closure made per call.
    class AbortSignal2 {}
    const named = function dispatch() {};
    expect(__name(AbortSignal2, "AbortSignal").name).toBe("AbortSignal");
    expect(__name(named, "dispatch")).toBe(named);
    expect(Object.getOwnPropertyDescriptor(named, "name")).toEqual({
      value: "dispatch",
      writable: false,
      enumerable: false,
      configurable: true,
    });
    // An anonymous arrow or async function (a closure made per call, never a constructor) is left alone;
    // an anonymous function or class is named. (An argument's function gets no name from JavaScript.)
    const unnamed = <T>(value: T): T => value;
    const arrow = unnamed(() => 1);
    const asyncArrow = unnamed(async () => 1);
    // biome-ignore lint/complexity/useArrowFunction: a function expression, which the helper names
    const expression = unnamed(function () {});
    expect(__name(arrow, "handler")).toBe(arrow);
    expect(arrow.name).toBe("");
    expect(__name(asyncArrow, "handler").name).toBe("");
    expect(__name(expression, "handler").name).toBe("handler");
    expect(__name(unnamed(class {}), "Handler").name).toBe("Handler");
  });
});

interface Metafile {
  outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
}

const meta = JSON.parse(readFileSync(path.join(SERVICE_BUNDLE, "meta.json"), "utf8")) as Metafile;
const outputs = new Map(Object.entries(meta.outputs).map(([file, output]) => [path.basename(file), output]));

/** The bundle's file holding this compiled source. */
function chunkOf(source: string): string {
  const chunk = [...outputs.entries()].find(([, output]) =>
    Object.keys(output.inputs).some((input) => input.endsWith(source)),
  )?.[0];
  expect(chunk, source).toBeDefined();
  return chunk ?? "";
}

/** The sources that loading these files loads: theirs and those of every file they import statically. */
function loadedBy(...files: string[]): string[] {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const { path: imported, kind } of outputs.get(file)?.imports ?? []) {
      if (kind === "import-statement" && outputs.has(path.basename(imported))) visit(path.basename(imported));
    }
  };
  files.forEach(visit);
  return [...loaded].flatMap((file) => Object.keys(outputs.get(file)?.inputs ?? {}));
}

describe("the primary's part of the bundle", () => {
  it("holds none of the libraries: the primary stays a bare node process (README, Production)", () => {
    const inputs = loadedBy("main.js", chunkOf("src/serve/primary.js"));
    expect(inputs.some((input) => input.endsWith("src/serve/primary.js"))).toBe(true);
    expect(inputs.filter((input) => input.includes("node_modules/"))).toEqual([]);
    // The service itself, its configuration (zod) and its logger (pino) load in the workers only.
    for (const own of ["src/config.js", "src/logger.js", "src/compose.js", "src/serve/instance.js"]) {
      expect(inputs.filter((input) => input.endsWith(own))).toEqual([]);
    }
  });
});

describe("a worker's part of the bundle", () => {
  it("leaves out the migrator, which loads only when a migration is pending (src/db/orm.ts)", () => {
    const inputs = loadedBy("main.js", chunkOf("src/serve/instance.js"));
    expect(inputs.some((input) => input.endsWith("src/compose.js"))).toBe(true);
    for (const migrating of [
      "node_modules/@mikro-orm/migrations/",
      "node_modules/umzug/",
      "src/db/migrate.js",
    ]) {
      expect(inputs.filter((input) => input.includes(migrating))).toEqual([]);
    }
  });
});
