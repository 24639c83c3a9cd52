/**
 * A few tesseract.js workers (worker threads running the WASM core), started on first use and reused:
 * starting one costs ~0.5–1 s and ~100–200 MB, recognising a receipt ~0.5–1.5 s. Each worker runs one job at a
 * time; further jobs wait in a queue. A job that overruns its limit gets its worker terminated (the only
 * way to stop a WASM recognition) and a fresh worker is started for the next job.
 */
import type { Worker as ThreadWorker } from "node:worker_threads";
import type Tesseract from "tesseract.js";
import { projectFile } from "../../project-files.js";
import { OcrClosedError, OcrTimeoutError } from "./errors.js";

/**
 * Tesseract's "fast" English model (tessdata_fast 4.1.0, as Debian's tesseract-ocr-eng ships it; Apache-2.0,
 * see models/tessdata-fast/README.md), kept in the repository. On the rendered photo set
 * (test/fixtures/photos) it reads more references exactly than the "best_int" model of
 * @tesseract.js-data/eng, in three quarters of the time (docs/performance.md). A local langPath also keeps
 * tesseract.js offline: without it the worker fetches from a CDN, and offline that promise never settles.
 */
const LANG_PATH = projectFile("models", "tessdata-fast");

/** Starting a worker reads 2 MB and compiles WASM: well under a second, so 30 s only catches a wedge. */
const START_TIMEOUT_MS = 30_000;

/**
 * Tesseract's text of a page, its words with their boxes and confidences (TSV), its glyphs' boxes, and its
 * hOCR, which alone carries the other characters it weighed for each glyph (alternatives.ts).
 */
export interface RecognizedPage {
  text: string;
  tsv: string;
  blocks: readonly Tesseract.Block[];
  hocr: string;
  /** How far tesseract turned the image to straighten its lines before reading (the boxes are in that copy). */
  rotateRadians: number;
}

export interface OcrWorkerPoolOptions {
  size: number;
}

interface Running {
  /** Ends the job now (close()): rejects it and terminates its worker. */
  abort(error: Error): void;
}

export class OcrWorkerPool {
  readonly #size: number;
  readonly #idle: Tesseract.Worker[] = [];
  readonly #waiting: Array<{ start: () => void; reject: (error: Error) => void }> = [];
  readonly #running = new Set<Running>();
  readonly #starting = new Set<Promise<Tesseract.Worker>>();
  #busy = 0;
  #closed = false;

  constructor(options: OcrWorkerPoolOptions) {
    this.#size = Math.max(1, Math.floor(options.size));
  }

  /**
   * Text of an image tesseract can read (PNG here), within `timeoutMs` of recognition; time queued and a
   * worker's start (limited separately) do not count.
   */
  async recognize(image: Buffer, timeoutMs: number): Promise<RecognizedPage> {
    await this.#turn();
    try {
      const worker = this.#takeIdle() ?? (await this.#start());
      return await this.#run(worker, image, timeoutMs);
    } finally {
      this.#busy -= 1;
      this.#waiting.shift()?.start();
    }
  }

  /** Terminates every worker; queued and running jobs reject with OcrClosedError. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(new OcrClosedError());
    for (const job of this.#running) job.abort(new OcrClosedError());
    await Promise.all(this.#idle.splice(0).map((worker) => worker.terminate()));
    // A worker still starting is terminated by its job as soon as it is up (#run sees the pool closed).
    await Promise.allSettled(this.#starting);
  }

  async #start(): Promise<Tesseract.Worker> {
    const starting = startWorker();
    this.#starting.add(starting);
    try {
      return await starting;
    } finally {
      this.#starting.delete(starting);
    }
  }

  /** An idle worker whose thread is still alive. */
  #takeIdle(): Tesseract.Worker | undefined {
    for (let worker = this.#idle.pop(); worker; worker = this.#idle.pop()) {
      if (!EXITED.has(worker)) return worker;
    }
    return undefined;
  }

  /** Resolves when this job may use a worker: at most `size` jobs hold one at a time. */
  #turn(): Promise<void> {
    if (this.#closed) return Promise.reject(new OcrClosedError());
    if (this.#busy < this.#size) {
      this.#busy += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({
        start: () => {
          this.#busy += 1;
          resolve();
        },
        reject,
      });
    });
  }

  #run(worker: Tesseract.Worker, image: Buffer, timeoutMs: number): Promise<RecognizedPage> {
    if (this.#closed) {
      void worker.terminate();
      return Promise.reject(new OcrClosedError());
    }
    return new Promise<RecognizedPage>((resolve, reject) => {
      const thread = threadOf(worker);
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (
        error: Error | null,
        page: RecognizedPage = { text: "", tsv: "", blocks: [], hocr: "", rotateRadians: 0 },
      ) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        thread?.off("exit", onExit);
        this.#running.delete(job);
        // A worker whose job failed may still be recognising, or be broken: only a clean finish is reused.
        if (error || this.#closed) void worker.terminate();
        else this.#idle.push(worker);
        if (error) reject(error);
        else resolve(page);
      };
      const onExit = () => finish(new Error("The OCR worker stopped unexpectedly."));
      const job: Running = { abort: (error) => finish(error) };
      this.#running.add(job);
      thread?.once("exit", onExit);
      timer = setTimeout(() => finish(new OcrTimeoutError()), Math.max(0, timeoutMs));
      // rotateAuto: tesseract measures the text lines' skew and reads a straightened copy. A hand-held
      // photo is 1–3° off, enough to misread references (FT26083X)RMH); it costs ~15% more time.
      const output = { text: true, tsv: true, blocks: true, hocr: true };
      worker.recognize(image, { rotateAuto: true }, output).then(
        (result) =>
          finish(null, {
            text: result.data.text,
            tsv: result.data.tsv ?? "",
            blocks: result.data.blocks ?? [],
            hocr: result.data.hocr ?? "",
            rotateRadians: result.data.rotateRadians ?? 0,
          }),
        (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
}

/** Workers whose thread has ended (crashed, or terminated by us). */
const EXITED = new WeakSet<Tesseract.Worker>();

/** The worker_threads Worker behind a tesseract.js worker (an undocumented but long-stable field). */
function threadOf(worker: Tesseract.Worker): ThreadWorker | undefined {
  const thread = (worker as unknown as { worker?: unknown }).worker;
  return thread && typeof (thread as ThreadWorker).once === "function" ? (thread as ThreadWorker) : undefined;
}

async function startWorker(): Promise<Tesseract.Worker> {
  // Loaded with the first image, not at start: most requests carry no image, and an idle worker holds memory.
  const { createWorker, OEM, PSM } = (await import("tesseract.js")).default;
  const starting = createWorker("eng", OEM.LSTM_ONLY, {
    langPath: LANG_PATH,
    gzip: true,
    // The default caches the model by writing ./eng.traineddata into the working directory.
    cacheMethod: "none",
    // Without a handler tesseract.js rethrows a failed job's error inside its message listener, which is
    // an uncaught exception; the job's own promise already carries the error.
    errorHandler: () => {},
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("The OCR worker did not start.")), START_TIMEOUT_MS);
  });
  try {
    const worker = await Promise.race([starting, timeout]);
    // A thread that crashes (WASM out of memory) emits 'error'; unheard, that is an uncaught exception that
    // ends the process. Its 'exit' then fails the running job (see #run), and an idle one is dropped.
    threadOf(worker)
      ?.on("error", () => {})
      .once("exit", () => EXITED.add(worker));
    await worker.setParameters({ ...RECOGNITION_PARAMETERS, tessedit_pageseg_mode: PSM.AUTO });
    return worker;
  } catch (error) {
    // A worker that starts after all must not linger and hold the process open.
    starting.then((late) => late.terminate()).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// Beside them, the page segmentation: tesseract.js defaults to one uniform block (PSM 6). On the test
// receipts (label and value columns) that read no more of them, was up to 3× slower on photos, and garbled
// tilted photos into noise: PSM.AUTO.
const RECOGNITION_PARAMETERS: Partial<Tesseract.WorkerParams> = {
  // Tesseract prints "Estimating resolution as …" to stderr for every image without a DPI; the server's
  // stderr is for the logger. The path is inside the worker's in-memory file system.
  debug_file: "/dev/null",
  // The LSTM's runner-up characters for each glyph, written into the hOCR: where a misread reference most
  // likely went wrong, and what the glyph more likely was (alternatives.ts). The text read is the same;
  // recognition takes about 12 % longer (docs/performance.md).
  lstm_choice_mode: "2",
};
