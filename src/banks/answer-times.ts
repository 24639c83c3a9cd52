import type { BankCode } from "./codes.js";

const KEPT = 50;
const PERCENTILE = 0.9;

/**
 * How long each bank has recently taken to give an answer that could be read. A retry is started
 * only when a typical answer still fits before the verification's deadline: judged by what the bank has
 * done, not by a guess.
 */
export class AnswerTimes {
  private readonly recent = new Map<BankCode, number[]>();

  record(bank: BankCode, ms: number): void {
    let times = this.recent.get(bank);
    if (!times) {
      times = [];
      this.recent.set(bank, times);
    }
    times.push(ms);
    if (times.length > KEPT) times.shift();
  }

  /** The 90th percentile of the bank's recent answer times; null before its first answer. */
  typical(bank: BankCode): number | null {
    const times = this.recent.get(bank);
    if (!times?.length) return null;
    const sorted = [...times].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * PERCENTILE))] ?? null;
  }
}
