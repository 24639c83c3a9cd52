import { BANK_CODES } from "../../src/banks/codes.js";
import { createReceiptReader } from "../../src/receipts/reader.js";
import {
  KINDS,
  loadCorpus,
  type Reading,
  readCase,
  score,
} from "../../test/fixtures/receipts/corpus/corpus.js";
import { atLeast, atMost, type ScenarioResult } from "../figures.js";
import { median, round } from "../stats.js";

const ROUNDS = 20;

/**
 * 9. Reading receipt text: the independent corpus of test/fixtures/receipts/corpus read the way
 * parse-receipt reads it; the share of inputs read exactly, per bank and input kind, and the time per text.
 */
export async function reading(): Promise<ScenarioResult> {
  const reader = createReceiptReader({ ocr: null });
  const corpus = loadCorpus();
  const readings: Reading[] = [];
  for (const c of corpus) readings.push(await readCase(reader, c));
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of corpus) samples.push((await readCase(reader, c)).ms);
  }
  const all = score(readings);
  const rows = [
    ...BANK_CODES.map((bank) => ({ group: bank, of: readings.filter((r) => r.case.bank === bank) })),
    ...KINDS.map((kind) => ({ group: kind, of: readings.filter((r) => r.case.kind === kind) })),
    { group: "peer samples", of: readings.filter((r) => r.case.source === "peer") },
  ]
    .filter(({ of }) => of.length > 0)
    .map(({ group, of }) => ({ group, ...score(of) }));
  console.log(
    ["group            inputs  exact  ref    amount date   payer"]
      .concat(
        rows.map((r) =>
          [
            r.group.padEnd(16),
            String(r.inputs).padStart(6),
            ...[r.exact, r.reference, r.amount, r.date, r.payer].map((v) => `${v}`.padStart(6)),
          ].join(" "),
        ),
      )
      .join("\n"),
  );
  return {
    figures: [
      atLeast("reading.text.exact", 9, `texts with every field exact (${all.inputs})`, all.exact, "%", 98),
      atLeast("reading.text.reference", 9, "texts with the exact reference", all.reference, "%", 100),
      atLeast("reading.text.amount", 9, "texts with the exact amount", all.amount, "%", 100),
      atMost("reading.text.median", 9, "receipt text → fields, median", round(median(samples), 3), "ms", 1),
    ],
    details: { groups: rows },
  };
}
