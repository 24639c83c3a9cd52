import { createServer, type RequestListener } from "node:http";
import type { Server as NetServer } from "node:net";
import net from "node:net";
import { Readable } from "node:stream";
import { MessageChannel } from "node:worker_threads";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createConnectionRelay } from "../../src/serve/connection-relay.js";
import { relayedConnections } from "../../src/serve/relayed-connections.js";

// The primary's relay and a worker's side of it, joined by a real MessageChannel in one thread (as a worker
// thread's port would be), with Node's HTTP server serving the relayed connections and real clients on
// loopback.
interface Served {
  url: string;
  stop(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(handler: RequestListener, keepAliveMs = 5_000): Promise<Served> {
  let listened: NetServer | undefined;
  const relay = createConnectionRelay(
    (server) =>
      new Promise((resolve) => {
        listened = server;
        server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
      }),
  );
  const { port1, port2 } = new MessageChannel();
  relay.attach(port1);
  const server = createServer(handler);
  server.keepAliveTimeout = keepAliveMs;
  const source = relayedConnections(port2);
  const port = await source.start(server);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    relay.close();
    await source.stop(server);
    await new Promise<void>((resolve) => (listened?.listening ? listened.close(() => resolve()) : resolve()));
  };
  cleanups.push(stop);
  return { url: `http://127.0.0.1:${port}`, stop };
}

describe("connections relayed from the primary to a worker thread", () => {
  it("serves requests with bodies both ways and keeps the connection alive between them", async () => {
    const remote: string[] = [];
    const served = await serve((req, res) => {
      remote.push(`${req.socket.remoteAddress}`);
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        res.setHeader("content-type", "application/octet-stream");
        res.end(Buffer.concat([body, body]));
      });
    });
    const agent = new Agent({ connections: 1 });
    cleanups.push(() => agent.close());
    const big = Buffer.alloc(3 * 1024 * 1024, "birr");
    for (const body of [Buffer.from("hello"), big]) {
      const response = await request(served.url, { method: "POST", body, dispatcher: agent });
      const answer = Buffer.from(await response.body.arrayBuffer());
      expect(response.statusCode).toBe(200);
      expect(answer.equals(Buffer.concat([body, body]))).toBe(true);
    }
    expect(remote).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("closes a connection idle past the server's keep-alive timeout", async () => {
    const served = await serve((_req, res) => res.end("ok"), 200);
    const socket = net.connect(Number(new URL(served.url).port), "127.0.0.1");
    const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    const answered = await new Promise<number>((resolve) => socket.once("data", () => resolve(Date.now())));
    expect((await closed) - answered).toBeGreaterThanOrEqual(150);
  });

  it("tells the worker when a client goes away mid-request", async () => {
    let aborted: () => void = () => {};
    const gone = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const served = await serve((req) => req.socket.on("close", aborted));
    const socket = net.connect(Number(new URL(served.url).port), "127.0.0.1");
    socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise((resume) => setTimeout(resume, 50));
    socket.destroy();
    await gone;
  });

  it("drains: a request in flight is answered, then stop resolves", async () => {
    let answer: () => void = () => {};
    const served = await serve((_req, res) => {
      answer = () => res.end("late");
    });
    const pending = request(served.url, { reset: true });
    await new Promise((resume) => setTimeout(resume, 50));
    let stopped = false;
    const stopping = served.stop().then(() => {
      stopped = true;
    });
    await new Promise((resume) => setTimeout(resume, 50));
    expect(stopped).toBe(false);
    answer();
    const response = await pending;
    expect(await response.body.text()).toBe("late");
    await stopping;
    expect(stopped).toBe(true);
  });

  describe("with backpressure both ways", () => {
    const MB = 1024 * 1024;
    const TOTAL = 96 * MB;
    const settle = () => new Promise((resume) => setTimeout(resume, 500));

    it("paces a streamed response by its client: one that stops reading holds the stream", async () => {
      let produced = 0;
      const served = await serve((_req, res) => {
        res.setHeader("content-length", String(TOTAL));
        new Readable({
          read() {
            if (produced === TOTAL) this.push(null);
            else {
              produced += 64 * 1024;
              this.push(Buffer.alloc(64 * 1024, "e"));
            }
          },
        }).pipe(res);
      });
      const socket = net.connect(Number(new URL(served.url).port), "127.0.0.1");
      cleanups.unshift(async () => void socket.destroy());
      socket.write("GET /export HTTP/1.1\r\nHost: x\r\n\r\n");
      let received = 0;
      await new Promise<void>((resolve) =>
        socket.once("data", (chunk: Buffer) => {
          socket.pause();
          received += chunk.length;
          resolve();
        }),
      );
      await settle();
      // What the kernel's socket buffers take, not the 96 MB the server would write without waiting.
      expect(produced).toBeLessThan(40 * MB);

      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= TOTAL) socket.end();
      });
      socket.resume();
      await new Promise((resolve) => socket.on("close", resolve));
      expect(produced).toBe(TOTAL);
      expect(received).toBeGreaterThan(TOTAL);
    });

    it("stops reading a client whose request the server has not read yet", async () => {
      let read: () => void = () => {};
      const reading = new Promise<void>((resolve) => {
        read = resolve;
      });
      const served = await serve(async (req, res) => {
        await reading;
        let length = 0;
        req.on("data", (chunk: Buffer) => {
          length += chunk.length;
        });
        req.on("end", () => res.end(String(length)));
      });
      const socket = net.connect(Number(new URL(served.url).port), "127.0.0.1");
      cleanups.unshift(async () => void socket.destroy());
      socket.write(`POST /receipts HTTP/1.1\r\nHost: x\r\nContent-Length: ${TOTAL}\r\n\r\n`);
      socket.write(Buffer.alloc(TOTAL, "b"));
      await settle();
      const sent = TOTAL - socket.writableLength;
      read();
      // The kernel's buffers again: the rest waited in the client.
      expect(sent).toBeLessThan(40 * MB);

      const answer = await new Promise<string>((resolve) =>
        socket.once("data", (chunk) => resolve(String(chunk))),
      );
      expect(answer).toMatch(new RegExp(`^HTTP/1.1 200 OK[\\s\\S]*\r\n\r\n${TOTAL}$`));
    });
  });
});
