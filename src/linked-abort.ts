/**
 * Aborts `controller` with the reason of the first of `signals` to abort, until the returned function
 * unlinks them (call it when the work is done, aborted or not).
 *
 * Instead of Node 20's `AbortSignal.any`, which files a WeakRef to the combined signal in each source's set
 * of dependants and never takes it out: given the engine's "stopping" signal, which lives as long as the
 * worker, once per verification (twice, counting the bank client's own), that set grew by ~100 bytes a
 * verification for good, and every full collection marked it again (README, "Performance").
 */
export function linkAbort(
  controller: AbortController,
  signals: readonly (AbortSignal | undefined)[],
): () => void {
  const linked: AbortSignal[] = [];
  const unlink = () => {
    for (const signal of linked) signal.removeEventListener("abort", onAbort);
    linked.length = 0;
  };
  function onAbort(this: AbortSignal) {
    unlink();
    controller.abort(this.reason);
  }
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) {
      unlink();
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", onAbort);
    linked.push(signal);
  }
  return unlink;
}
