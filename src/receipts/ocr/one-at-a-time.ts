/**
 * Runs async tasks one after another. Image decoding and encoding in @napi-rs/canvas run on libuv's
 * thread pool; a process running OCR under heavy load was seen to die without a trace (a test worker, a few
 * times), and overlapping native image work is the suspect, so it is never overlapped. It costs little:
 * recognition itself is already queued per worker.
 */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
