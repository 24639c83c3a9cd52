import { writeFile } from "node:fs/promises";
import os from "node:os";
import type { Figure } from "./figures.js";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  postgres: string;
  date: string;
  /** 1-minute load average at the start and the end of the run: other work on the machine skews every figure. */
  loadAverage: { start: number; end: number };
}

export function machine(postgres: string, loadAtStart: number): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    postgres,
    date: new Date().toISOString(),
    loadAverage: { start: loadAtStart, end: Math.round((os.loadavg()[0] ?? 0) * 100) / 100 },
  };
}

/** The table: scenario, figure, value, goal, ✓/✗ (blank where the figure has no goal). */
export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    String(f.scenario),
    f.label,
    f.value === null
      ? "—"
      : `${f.value}${f.unit && f.unit !== "%" && f.unit !== "/s" ? ` ${f.unit}` : f.unit}`,
    f.goal ? `${f.goal}${f.unit && f.unit !== "%" && f.unit !== "/s" ? ` ${f.unit}` : f.unit}` : "",
    f.pass === null ? "" : f.pass ? "✓" : "✗",
  ]);
  const header = ["#", "figure", "value", "goal", ""];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 2 || i === 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export async function writeResults(
  file: string,
  data: { machine: Machine; durationSeconds: number; figures: Figure[]; details: Record<string, unknown> },
): Promise<void> {
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
}
