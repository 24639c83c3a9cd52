// Stands in for whatwg-url inside node-fetch 2 (grammY's HTTP client; scripts/build.mjs): node-fetch takes
// its URL class only where Node has none (`Url.URL || whatwgUrl.URL`), never on Node 20, but requiring
// whatwg-url at load parses tr46's Unicode mapping table into every worker's heap (1.6 MB).
const { lazily } = require("./lazily.cjs");

let real;
module.exports = lazily(() => {
  real ??= require("whatwg-url");
  return real;
});
