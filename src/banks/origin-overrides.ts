// Its own module, without the HTTP client: the configuration (and so a primary) parses it too.

/** "host[:port]=base-url,..." → Map keyed "host:port" (port 443 when absent); throws Error naming the bad entry */
export function parseOriginOverrides(value: string | undefined): Map<string, string> {
  const result = new Map<string, string>();
  if (!value?.trim()) return result;
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf("=");
    const bad = (why: string) => new Error(`Invalid BANK_ORIGIN_OVERRIDES entry "${entry}": ${why}`);
    if (eq === -1) throw bad('expected "host[:port]=base-url"');
    const origin = entry.slice(0, eq).trim().toLowerCase();
    const base = entry.slice(eq + 1).trim();
    const match = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(origin);
    const host = match?.[1];
    if (!match || !host) throw bad("the origin must be a host name with an optional port");
    const port = Number(match[2] ?? 443);
    if (port < 1 || port > 65535) throw bad("the port is out of range");
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw bad("the base is not an absolute URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw bad("the base must be http or https");
    if (url.search || url.hash || url.username || url.password) {
      throw bad("the base may not carry a query, fragment or credentials");
    }
    const key = `${host}:${port}`;
    if (result.has(key)) throw bad(`${key} is overridden twice`);
    result.set(key, base.replace(/\/+$/, ""));
  }
  return result;
}
