/** The most worker threads a primary runs (WEB_CONCURRENCY's limit): each has a row of slots. */
export const MAX_WORKERS = 64;

/**
 * Slots per worker. A key's hash picks one; a claim elsewhere in the same slot (another key, a collision)
 * only sends the claim through the primary, so this bounds how often that happens: with 500 verifications
 * in flight in the other workers, about one claim in seventeen.
 */
const SLOTS = 8192;

/**
 * The primary's shared memory of claims in flight, a row of counts per worker thread. A worker counts each
 * of its claims in its own row (in the slot its key hashes to) until the claim ends, and leads a key without
 * asking anyone when no other worker counts a claim in that slot: nobody else can lead that key then, nor
 * start to without seeing this claim first (src/serve/peer-leads.ts). Unused pages are never touched.
 */
export function sharedLeadSlots(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(MAX_WORKERS * SLOTS * Int32Array.BYTES_PER_ELEMENT));
}

/** The primary's side: a worker that exited ended all its claims (its row is handed to its successor). */
export function clearRow(counts: Int32Array, row: number): void {
  for (let slot = row * SLOTS; slot < (row + 1) * SLOTS; slot++) Atomics.store(counts, slot, 0);
}

export interface LeadSlots {
  /** Counts a claim on `key` in this worker's row; returns its slot. */
  take(key: string): number;
  /** Whether another worker counts a claim in the slot (read after `take`, never before). */
  contended(slot: number): boolean;
  /** Ends a claim `take` counted. */
  put(slot: number): void;
}

/**
 * A worker's view of the slots: its own row (`row`) and those of the `rows` workers the primary runs. Atomics
 * are sequentially consistent, so of two workers that each count a claim and then read the other's row, at
 * least one sees the other's count: two workers never both lead a key unasked.
 */
export function leadSlots(counts: Int32Array, row: number, rows: number): LeadSlots {
  const own = row * SLOTS;
  const last = Math.min(rows, MAX_WORKERS) * SLOTS;
  return {
    take(key) {
      const slot = slotOf(key);
      Atomics.add(counts, own + slot, 1);
      return slot;
    },
    contended(slot) {
      for (let other = slot; other < last; other += SLOTS) {
        if (other !== own + slot && Atomics.load(counts, other) !== 0) return true;
      }
      return false;
    },
    put(slot) {
      Atomics.sub(counts, own + slot, 1);
    },
  };
}

/** FNV-1a over the key's UTF-16 code units, folded to a slot. */
function slotOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SLOTS;
}
