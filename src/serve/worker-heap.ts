import { setFlagsFromString } from "node:v8";

/**
 * Each worker's V8 heap, bounded (README, "Production"). The old generation: with V8's defaults on a large
 * machine it may grow to four times what survived its last collection, and a burst of verifications left
 * each worker holding ~150 MB more than it uses; a worker that outgrows the limit is ended and restarted.
 * The young generation (two 4 MB semi-spaces and their large-object space): with 6 MB, what a verification
 * holds across a few awaits outlived two scavenges and was promoted, so each worker spent more CPU in full
 * collections; 12 MB costs ~5 MB of idle RSS, which `npm start`'s single malloc arena more than gives back
 * (README, "Memory, by design").
 */
export const WORKER_HEAP = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 12 };

/**
 * V8's flags belong to the process and override a worker's `resourceLimits`: `npm start`'s
 * `--max-semi-space-size=2`, meant for the primary's young generation, also set every worker's, whatever
 * `WORKER_HEAP` asked (until the seventh round its 12 MB was not in force). V8 reads the flag when it creates
 * an isolate's heap, so clearing it once the primary's heap exists gives the workers `WORKER_HEAP` and
 * leaves the primary's young generation as the start command set it.
 */
export function letWorkersSizeTheirYoungGeneration(): void {
  setFlagsFromString("--max-semi-space-size=0");
}
