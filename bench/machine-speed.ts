import { createHash } from "node:crypto";
import { median, round } from "./stats.js";

/**
 * One core's speed at the kind of work a verification is (objects, JSON, strings, a hash), as the
 * milliseconds a fixed piece of it takes: the median of 7, before anything else starts. The same commit
 * has measured 2.5× apart on machines of one size; this figure says which kind of machine a run had.
 */
export function referenceWorkMs(): number {
  const times: number[] = [];
  for (let run = 0; run < 7; run++) {
    const began = performance.now();
    referenceWork();
    times.push(performance.now() - began);
  }
  return round(median(times), 1);
}

function referenceWork(): number {
  let checksum = 0;
  for (let i = 0; i < 4_000; i++) {
    const receipt = {
      reference: `FT${(23_000_000 + i).toString(36).toUpperCase()}`,
      amount: (i * 137.25).toFixed(2),
      payer: { name: `Abebe Kebede ${i}`, account: `1000${i}`.padEnd(13, "7") },
      lines: Array.from({ length: 8 }, (_, n) => ({ label: `line ${n}`, value: `${i * n} ETB` })),
    };
    const text = JSON.stringify(receipt);
    const parsed = JSON.parse(text) as typeof receipt;
    const labels = parsed.lines.map((line) => line.label.toUpperCase()).join("|");
    checksum += createHash("sha256").update(text).update(labels).digest()[0] ?? 0;
  }
  return checksum;
}
