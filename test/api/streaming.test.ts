import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { startStreaming } from "../../api/streaming.js";

// The export's response body (api/streaming.ts): what a failure does before and after the first chunk, and
// what a client that leaves does to the source.

function sink(received: string[], afterFirst?: () => void) {
  return new Writable({
    objectMode: true,
    write(chunk, _encoding, done) {
      received.push(String(chunk));
      if (received.length === 1) afterFirst?.();
      done();
    },
  });
}

describe("startStreaming", () => {
  it("passes every chunk on, in order", async () => {
    async function* chunks() {
      yield "a";
      yield "b";
      yield "c";
    }
    const received: string[] = [];
    await pipeline(await startStreaming(chunks(), () => undefined), sink(received));
    expect(received).toEqual(["a", "b", "c"]);
  });

  it("rejects when the first chunk fails, so the route still answers with JSON", async () => {
    const failure = new Error("database down");
    const logged: unknown[] = [];
    // biome-ignore lint/correctness/useYield: a source that fails before its first chunk
    async function* chunks(): AsyncGenerator<string> {
      throw failure;
    }
    await expect(startStreaming(chunks(), (error) => logged.push(error))).rejects.toBe(failure);
    expect(logged).toEqual([]);
  });

  it("destroys the stream with a later failure and hands it to onError once", async () => {
    const failure = new Error("connection lost");
    const logged: unknown[] = [];
    async function* chunks() {
      yield "header and first batch";
      throw failure;
    }
    const received: string[] = [];
    const stream = await startStreaming(chunks(), (error) => logged.push(error));
    await expect(pipeline(stream, sink(received))).rejects.toBe(failure);
    expect(received).toEqual(["header and first batch"]);
    expect(logged).toEqual([failure]);
  });

  it("closes the source when the reader goes away, without calling it a failure", async () => {
    let closed = false;
    let produced = 0;
    async function* chunks() {
      try {
        for (;;) {
          produced++;
          yield `batch ${produced}`;
        }
      } finally {
        closed = true;
      }
    }
    const logged: unknown[] = [];
    const stream = await startStreaming(chunks(), (error) => logged.push(error));
    const received: string[] = [];
    const gone = new Error("client closed the connection");
    const reader = sink(received, () => reader.destroy(gone));
    await expect(pipeline(stream, reader)).rejects.toBe(gone);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
    expect(logged).toEqual([]);
    // Backpressure: the source ran at most a couple of chunks ahead of the reader.
    expect(produced).toBeLessThan(5);
  });
});
