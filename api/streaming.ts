import { Readable } from "node:stream";

/**
 * A response body that streams `chunks` with backpressure (Koa pipes it; the next chunk is produced when the
 * socket wants it). The first chunk is awaited here, before the route answers: a failure that early (the
 * database down) is still rendered as the contract's JSON. Later the status line is gone, so a failure
 * destroys the stream (Koa then cuts the connection and the client sees a truncated body, not a complete
 * file) and is handed to `onError` to be logged. A client that goes away closes the source.
 */
export async function startStreaming(
  chunks: AsyncIterable<string>,
  onError: (error: unknown) => void,
): Promise<Readable> {
  const source = chunks[Symbol.asyncIterator]();
  const first = await source.next();
  const empty = first.done === true;
  // Held only until it is passed on (rest() does not refer to `first`, so the chunk is not kept with it).
  let pending: string | undefined = first.done ? undefined : first.value;
  async function* rest(): AsyncGenerator<string, void, undefined> {
    let finished = empty;
    try {
      if (pending !== undefined) {
        const chunk = pending;
        pending = undefined;
        yield chunk;
      }
      while (!finished) {
        let next: IteratorResult<string, unknown>;
        try {
          next = await source.next();
        } catch (error) {
          // Only the source's own failures: a destroyed stream throws into the yield below instead.
          finished = true;
          onError(error);
          throw error;
        }
        if (next.done) finished = true;
        else yield next.value;
      }
    } finally {
      // Destroyed early (the client left): let the source run its own cleanup.
      if (!finished) await source.return?.();
    }
  }
  // One chunk read ahead at most: the source is paced by the socket, not by the database.
  return Readable.from(rest(), { objectMode: true, highWaterMark: 1 });
}
