import { lookup } from "node:dns/promises";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import net, { type AddressInfo } from "node:net";
import type { MessagePort } from "node:worker_threads";
import type { RelayMessage } from "./relay-messages.js";
import type { ConnectionSource } from "./relayed-connections.js";

/** Makes a TCP socket bound to (port, IP address) with SO_REUSEPORT set, and returns its descriptor. */
export type ReusePortSocket = (port: number, address: string) => number;

/**
 * node-unix-socket's prebuilt addons, loaded without the package's own loader: the registry we install from
 * holds only these two of its builds, and npm refuses a lock file missing the others the loader names.
 */
const ADDONS = ["node-unix-socket-linux-x64-gnu", "node-unix-socket-linux-x64-musl"];

interface ReusePortAddon {
  socketNewSoReuseportFd(domain: "ipv4" | "ipv6", port: number, address: string): number;
}

/**
 * SO_REUSEPORT through node-unix-socket's addon where it is built for this machine (Node 20 has no
 * `reusePort` of its own), or null: then the primary relays connections (connection-relay.ts).
 */
export function loadReusePort(): ReusePortSocket | null {
  const require = createRequire(import.meta.url);
  for (const name of ADDONS) {
    let addon: Partial<ReusePortAddon>;
    try {
      addon = require(name) as Partial<ReusePortAddon>;
    } catch {
      continue; // not installed here, or built for the other C library
    }
    const { socketNewSoReuseportFd } = addon;
    if (socketNewSoReuseportFd) {
      return (port, address) => socketNewSoReuseportFd(net.isIPv6(address) ? "ipv6" : "ipv4", port, address);
    }
  }
  return null;
}

/**
 * A worker thread listening on the service's port itself, beside its peers: each has a socket of its own
 * bound with SO_REUSEPORT, and the kernel spreads new connections over them, so a request never passes
 * through the primary (README, "Production"). The primary learns the port (and that this worker serves)
 * from a "serving" message carrying it. The first worker of a start checks the port is free with a plain
 * bind first (`first`): a socket with SO_REUSEPORT may share a port held by another program's such socket,
 * where a second start of the service must fail as a process serving alone does.
 */
export function sharedPort(
  port: number,
  host: string,
  primary: MessagePort,
  reusePort: ReusePortSocket,
  first: boolean,
): ConnectionSource {
  return {
    kind: "shared port",
    async start(server) {
      const address = net.isIP(host) ? host : (await lookup(host)).address;
      if (first && port !== 0) await portIsFree(port, address);
      const fd = reusePort(port, address);
      await listening(server, (done) => server.listen({ fd }, done));
      const bound = (server.address() as AddressInfo).port;
      primary.postMessage({ kind: "serving", port: bound } satisfies RelayMessage);
      return bound;
    },
    stop: (server) =>
      new Promise((resolve) => {
        primary.close();
        server.close(() => resolve());
      }),
  };
}

/** Rejects with the bind's error (EADDRINUSE) when anything holds the port. */
async function portIsFree(port: number, address: string): Promise<void> {
  const probe = net.createServer();
  await listening(probe, (done) => probe.listen({ port, host: address }, done));
  await new Promise((resolve) => probe.close(resolve));
}

function listening(server: Server | net.Server, listen: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    listen(() => {
      server.off("error", reject);
      resolve();
    });
  });
}
