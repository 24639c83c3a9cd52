/**
 * What cancellable work listens to: Node's AbortSignal satisfies it, and so does a Cancellation. (undici
 * takes any object with these members as a request's `signal`.)
 */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: AbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: AbortListener): void;
}

/** Called with the signal that fired as `this`, as an EventTarget calls it. */
type AbortListener = (this: CancelSignal) => void;

/**
 * An abort controller and its signal in one plain object, for the signals made per verification (four:
 * the client's, the deadline's, the shared bank lookup's, the bank request's). On Node 20 every AbortSignal
 * gets a hidden class of its own (its EventTarget's prototype is swapped after construction), allocated in
 * the old generation: 2.4 µs to make one, and the inline caches of every function that touches signals go
 * megamorphic. A signal fires once, so `once` needs no bookkeeping here.
 */
export class Cancellation implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: AbortListener[] = [];

  get signal(): CancelSignal {
    return this;
  }

  addEventListener(_type: "abort", listener: AbortListener): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: "abort", listener: AbortListener): void {
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  abort(reason: unknown = new DOMException("This operation was aborted", "AbortError")): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) {
      try {
        listener.call(this);
      } catch (error) {
        // As an EventTarget does: the others still run, and the error is not swallowed.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

/**
 * Aborts `cancellation` with the reason of the first of `signals` to abort, until the returned function
 * unlinks them (call it when the work is done, aborted or not).
 *
 * Instead of Node 20's `AbortSignal.any`, which files a WeakRef to the combined signal in each source's set
 * of dependants and never takes it out: given the engine's "stopping" signal, which lives as long as the
 * worker, once per verification (twice, counting the bank client's own), that set grew by ~100 bytes a
 * verification for good, and every full collection marked it again (README, "Performance").
 */
export function linkAbort(
  cancellation: Cancellation,
  signals: readonly (CancelSignal | undefined)[],
): () => void {
  const linked: CancelSignal[] = [];
  const unlink = () => {
    for (const signal of linked) signal.removeEventListener("abort", onAbort);
    linked.length = 0;
  };
  function onAbort(this: CancelSignal) {
    unlink();
    cancellation.abort(this.reason);
  }
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) {
      unlink();
      cancellation.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", onAbort);
    linked.push(signal);
  }
  return unlink;
}
