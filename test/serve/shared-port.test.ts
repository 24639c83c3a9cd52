import { lookup } from "node:dns/promises";
import { createServer, type Server } from "node:http";
import net from "node:net";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { createConnectionRelay } from "../../src/serve/connection-relay.js";
import type { RelayMessage } from "../../src/serve/relay-messages.js";
import { loadReusePort, type ReusePortSocket, sharedPort } from "../../src/serve/shared-port.js";

// Worker threads' HTTP servers listening on one port through SO_REUSEPORT, here in one thread (each server
// is what one worker runs), with real clients on loopback. The primary's side is the relay, which learns the
// port from the first worker's "serving" message and relays nothing.
const reusePort = loadReusePort() as ReusePortSocket;

interface Worker {
  server: Server;
  connections: number;
  /** The connection port the primary holds: where "serving" arrives. */
  primary: MessagePort;
  stop(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function worker(port: number, first: boolean, host = "127.0.0.1"): Promise<Worker & { port: number }> {
  const server = createServer((_req, res) => res.end("ok"));
  const { port1, port2 } = new MessageChannel();
  const source = sharedPort(port, host, port2, reusePort, first);
  const started: Worker & { port: number } = {
    server,
    connections: 0,
    primary: port1,
    port: 0,
    stop: () => source.stop(server),
  };
  server.on("connection", () => started.connections++);
  started.port = await source.start(server);
  cleanups.push(async () => {
    port1.close();
    if (server.listening) await started.stop();
  });
  return started;
}

/** `count` requests, each on a connection of its own. */
async function fetchEach(port: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: "close" } });
    expect(await response.text()).toBe("ok");
  }
}

/** A program holding the port with a socket of its own, as `kind` says. */
async function holder(kind: "plain" | "reuseport"): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) =>
    kind === "plain"
      ? server.listen(0, "127.0.0.1", resolve)
      : server.listen({ fd: reusePort(0, "127.0.0.1") }, resolve),
  );
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  cleanups.push(async () => (server.listening ? close() : undefined));
  return { port: (server.address() as net.AddressInfo).port, close };
}

describe("workers listening on one port (SO_REUSEPORT)", () => {
  it("is available on this platform (Linux), so the tests below run", () => {
    expect(reusePort).toBeTypeOf("function");
  });

  it("binds the first worker to a port of its choosing and the next beside it; both are given connections", async () => {
    const first = await worker(0, true);
    expect(first.port).toBeGreaterThan(0);
    const second = await worker(first.port, false);
    expect(second.port).toBe(first.port);

    await fetchEach(first.port, 40);
    expect(first.connections + second.connections).toBe(40);
    // The kernel spreads connections by their addresses: all 40 on one socket would be a 1 in 2^39 chance.
    expect(first.connections).toBeGreaterThan(0);
    expect(second.connections).toBeGreaterThan(0);
  });

  it("tells the primary the port when it serves, and the relay then neither listens nor relays", async () => {
    let relayListened = false;
    const relay = createConnectionRelay(async () => {
      relayListened = true;
      return 0;
    });
    const first = await worker(0, true);
    const target = relay.attach(first.primary);
    cleanups.push(async () => relay.detach(target));
    expect(await target.serving).toBe(first.port);
    expect(relayListened).toBe(false);
    expect(target.accepting).toBe(false);
  });

  it("keeps serving on the port when one worker stops", async () => {
    const first = await worker(0, true);
    const second = await worker(first.port, false);
    await first.stop();
    await fetchEach(first.port, 10);
    expect(second.connections).toBe(10);
  });

  it("binds the address a host name stands for", async () => {
    const named = await worker(0, true, "localhost");
    const { address } = await lookup("localhost");
    expect((named.server.address() as net.AddressInfo).address).toBe(address);
  });

  it.each(["plain", "reuseport"] as const)(
    "refuses to start a first worker on a port another program holds (%s socket)",
    async (kind) => {
      const taken = await holder(kind);
      await expect(worker(taken.port, true)).rejects.toMatchObject({ code: "EADDRINUSE" });
    },
  );

  it("says what it sends the primary as a relay message", async () => {
    const first = await worker(0, true);
    const second = await worker(first.port, false);
    const said = new Promise<RelayMessage>((resolve) => second.primary.once("message", resolve));
    // The message was posted at start: it waits on the port until someone listens.
    expect(await said).toEqual({ kind: "serving", port: first.port });
  });
});
