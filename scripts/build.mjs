// npm run build (and npm's prepare, so `npm ci` builds): the service compiled to dist/ by tsc, with the
// files it reads at run time beside the compiled code, at the same relative places as in the sources.
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
for (const asset of ["bot/locales", "api/docs", "src/receipts/qr/decode-worker.mjs", "models"]) {
  cpSync(path.join(root, asset), path.join(dist, asset), { recursive: true });
}
