import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BankCode } from "../../src/banks/codes.js";
import { createBankAdapters } from "../../src/banks/registry.js";
import { createReceiptReader, type ReceiptDocument } from "../../src/receipts/reader.js";
import { simulatedBankList } from "../../src/simulator/imitations.js";
import type { BenchContext } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { exchange } from "../load.js";
import { median, round, summarize } from "../stats.js";

const CORPUS = path.resolve(import.meta.dirname, "../../test/fixtures/receipts");
const WARM_UP_ROUNDS = 10;
const ROUNDS = 30;

/**
 * 5. Parsing, on this (bench) process: every PDF the simulated banks serve, read the way an upload is
 * (file on disk → text → bank detection → the bank's parser), and every receipt text of the test corpus.
 * Timed per receipt after warm-up rounds.
 */
export async function parsing(ctx: BenchContext): Promise<ScenarioResult> {
  const reader = createReceiptReader({ ocr: null });
  const dir = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-pdf-"));
  try {
    const pdfs: ReceiptDocument[] = [];
    for (const [index, bytes] of (await simulatorPdfs(ctx)).entries()) {
      const file = path.join(dir, `receipt-${index}.pdf`);
      await writeFile(file, bytes);
      const document = { file: { path: file } };
      // A PDF the reader refuses (a Zemen PDF carries no share token) is not a receipt it parses.
      if (
        await reader.read(document).then(
          () => true,
          () => false,
        )
      )
        pdfs.push(document);
    }
    const texts = await corpusTexts(reader);
    const time = async (documents: ReceiptDocument[]) => {
      for (let round = 0; round < WARM_UP_ROUNDS; round++) for (const d of documents) await reader.read(d);
      const samples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const d of documents) {
          const started = performance.now();
          await reader.read(d);
          samples.push(performance.now() - started);
        }
      }
      return samples;
    };
    const pdfMs = await time(pdfs);
    const textMs = await time(texts);
    return {
      figures: [
        atMost(
          "parsing.pdf.median",
          5,
          `PDF receipt → claim, median (${pdfs.length} PDFs)`,
          round(median(pdfMs)),
          "ms",
          30,
        ),
        atMost(
          "parsing.text.median",
          5,
          `receipt text → claim, median (${texts.length} texts)`,
          round(median(textMs), 3),
          "ms",
          1,
        ),
      ],
      details: {
        pdf: { receipts: pdfs.length, ...summarize(pdfMs) },
        text: { receipts: texts.length, ...summarize(textMs) },
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PDF of every seeded receipt of a bank that answers with one (directly, or base64 inside JSON). */
async function simulatorPdfs(ctx: BenchContext): Promise<Buffer[]> {
  const adapters = createBankAdapters();
  const pdfs: Buffer[] = [];
  for (const bank of simulatedBankList()) {
    for (const example of bank.examples) {
      const request = adapters[bank.code].buildRequest(example.target);
      const url = new URL(request.url);
      const answer = await exchange(
        ctx.simClient,
        `/${url.hostname}:${url.port || 443}${url.pathname}${url.search}`,
        {
          method: request.method,
          headers: request.headers,
        },
      );
      const pdf = pdfIn(answer.body);
      if (pdf) pdfs.push(pdf);
    }
  }
  return pdfs;
}

function pdfIn(body: unknown): Buffer | null {
  if (Buffer.isBuffer(body)) return body.subarray(0, 4).toString("latin1") === "%PDF" ? body : null;
  if (typeof body !== "object" || body === null) return null;
  for (const value of Object.values(body)) {
    if (typeof value === "string" && value.startsWith("JVBER")) return Buffer.from(value, "base64");
    const nested = pdfIn(value);
    if (nested) return nested;
  }
  return null;
}

/** The corpus's receipt texts the reader turns into a claim (hinted with the bank where detection is off). */
async function corpusTexts(reader: ReturnType<typeof createReceiptReader>): Promise<ReceiptDocument[]> {
  const documents: ReceiptDocument[] = [];
  for (const bank of await readdir(CORPUS)) {
    for (const name of (await readdir(path.join(CORPUS, bank))).filter((n) => n.endsWith(".txt"))) {
      const text = await readFile(path.join(CORPUS, bank, name), "utf8");
      const expected = JSON.parse(
        await readFile(path.join(CORPUS, bank, name.replace(/\.txt$/, ".json")), "utf8"),
      );
      const document: ReceiptDocument = {
        text,
        ...(expected.detect === false ? { bank: bank as BankCode } : {}),
      };
      if (
        await reader.read(document).then(
          () => true,
          () => false,
        )
      )
        documents.push(document);
    }
  }
  return documents;
}
