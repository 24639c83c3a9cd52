import { createConnection, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { watchDatabaseAvailability } from "../../src/db/availability.js";
import { createLogger } from "../../src/logger.js";
import { waitFor } from "../support/wait.js";

// The gate of src/db/availability.ts against the run's real PostgreSQL, reached through a relay on loopback
// that the test cuts and restores: a server that goes away and comes back, without stopping the shared one.

const admin = new URL(inject("adminDatabaseUrl"));
let relay: Server;
let passing = true;
const sockets = new Set<Socket>();
let url: string;

beforeAll(async () => {
  relay = createServer((client) => {
    if (!passing) {
      client.destroy();
      return;
    }
    const server = createConnection({ host: admin.hostname, port: Number(admin.port || 5432) });
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(server).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const address = relay.address();
  if (typeof address !== "object" || !address) throw new Error("no relay port");
  const through = new URL(admin);
  through.hostname = "127.0.0.1";
  through.port = String(address.port);
  url = through.toString();
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => relay.close(resolve));
});

function cut(): void {
  passing = false;
  for (const socket of sockets) socket.destroy();
}

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("database availability", () => {
  it("stays open for a slow statement that the server cancelled", () => {
    const availability = watchDatabaseAvailability(url, createLogger("silent"));
    try {
      const cancelled = Object.assign(new Error("canceling statement due to statement timeout"), {
        code: "57014",
      });
      availability.observe(cancelled);
      availability.observe(new Error("duplicate key value violates unique constraint"));
      expect(availability.reachable()).toBe(true);
    } finally {
      availability.close();
    }
  });

  it("closes on a failed connection, stays closed while probes fail, and opens when one is answered", async () => {
    const changes: boolean[] = [];
    const availability = watchDatabaseAvailability(url, createLogger("silent"), {
      probePauseMs: 20,
      onChange: (reachable) => changes.push(reachable),
    });
    try {
      cut();
      availability.observe(refused);
      expect(availability.reachable()).toBe(false);
      // A second failure while closed starts no second probe loop.
      availability.observe(refused);
      // Probes get no answer while the relay refuses: watched through the connections it turns away.
      let turnedAway = 0;
      const count = () => (turnedAway += 1);
      relay.on("connection", count);
      await waitFor(() => turnedAway >= 3, "three probes turned away");
      relay.off("connection", count);
      expect(availability.reachable()).toBe(false);

      passing = true;
      await waitFor(() => availability.reachable(), "a probe answered after the database came back");
      expect(changes).toEqual([false, true]);
    } finally {
      passing = true;
      availability.close();
    }
  });

  it("ignores failures once closed (shutdown)", () => {
    const availability = watchDatabaseAvailability(url, createLogger("silent"));
    availability.close();
    availability.observe(refused);
    expect(availability.reachable()).toBe(true);
  });
});
