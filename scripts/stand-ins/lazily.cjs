// A module's exports that load it on first use, with `own` values answered without loading it. "default" and
// "__esModule" are answered as a CommonJS module without them would, since interop helpers ask at load.
const INTEROP = new Set(["default", "__esModule"]);

exports.lazily = (load, own = {}) =>
  new Proxy(
    {},
    {
      get: (_, key) => (key in own ? own[key] : INTEROP.has(key) ? undefined : load()[key]),
      has: (_, key) => key in own || (!INTEROP.has(key) && key in load()),
    },
  );
