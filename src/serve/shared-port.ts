import { lookup } from "node:dns/promises";
import type { Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import type { MessagePort } from "node:worker_threads";
import type { RelayMessage } from "./relay-messages.js";
import type { ConnectionSource } from "./relayed-connections.js";

/** Makes a TCP socket bound to (port, IP address) with SO_REUSEPORT set, and returns its descriptor. */
export type ReusePortSocket = (port: number, address: string) => number;

/**
 * SO_REUSEPORT where the platform has it through node-unix-socket's prebuilt addon (Node 20 has no
 * `reusePort` of its own), or null: then the primary relays connections (connection-relay.ts).
 */
export async function loadReusePort(): Promise<ReusePortSocket | null> {
  try {
    const { createReuseportFd } = await import("node-unix-socket");
    return createReuseportFd;
  } catch {
    return null;
  }
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
