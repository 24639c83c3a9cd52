/** One line of the bench table and of results.json. */
export interface Figure {
  /** Stable key in results.json, e.g. "overhead.c1.p50". */
  id: string;
  /** The scenario's number in bench/run.ts. */
  scenario: number;
  label: string;
  value: number | null;
  unit: string;
  /** The goal as text, e.g. "≤ 5"; empty when the figure is recorded without a goal. */
  goal: string;
  /** null when there is no goal to meet. */
  pass: boolean | null;
}

/** A figure that must not exceed `limit`. */
export function atMost(
  id: string,
  scenario: number,
  label: string,
  value: number,
  unit: string,
  limit: number,
): Figure {
  return { id, scenario, label, value, unit, goal: `≤ ${limit}`, pass: value <= limit };
}

/** A figure that must reach `limit`. */
export function atLeast(
  id: string,
  scenario: number,
  label: string,
  value: number,
  unit: string,
  limit: number,
): Figure {
  return { id, scenario, label, value, unit, goal: `≥ ${limit}`, pass: value >= limit };
}

export function recorded(
  id: string,
  scenario: number,
  label: string,
  value: number | null,
  unit: string,
): Figure {
  return { id, scenario, label, value, unit, goal: "", pass: null };
}

/** What a scenario hands back: its figures and the raw numbers behind them for results.json. */
export interface ScenarioResult {
  figures: Figure[];
  details: Record<string, unknown>;
}
