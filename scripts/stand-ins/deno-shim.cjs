// Stands in for @deno/shim-deno inside @grammyjs/i18n (scripts/build.mjs): i18n reads only Deno.build.os
// when it loads, and reaches the rest of Deno (files, cwd) only when told to read translations from disk,
// which bot/i18n.ts never does. The whole shim, a tenth of a worker's functions, loads on first such use.
const { platform } = require("node:os");
const { lazily } = require("./lazily.cjs");

// As the shim itself says it (its dist/deno/stable/variables/build.js, which its exports do not reach).
const os = platform() === "win32" ? "windows" : platform() === "darwin" ? "darwin" : "linux";
let shim;
function real() {
  shim ??= require("@deno/shim-deno");
  return shim.Deno;
}

exports.Deno = lazily(real, { build: lazily(() => real().build, { os }) });
