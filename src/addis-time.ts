// Shops keep Addis Ababa time: UTC+3 all year (Ethiopia has no daylight saving), so plain arithmetic will do.
export const ADDIS_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The Addis Ababa calendar day of an instant, "2026-11-25". */
export function addisDay(now: Date): string {
  return new Date(now.getTime() + ADDIS_OFFSET_MS).toISOString().slice(0, 10);
}

/** Minutes since midnight in Addis Ababa, 0–1439. */
export function addisMinuteOfDay(now: Date): number {
  const shifted = new Date(now.getTime() + ADDIS_OFFSET_MS);
  return shifted.getUTCHours() * 60 + shifted.getUTCMinutes();
}

/** The instant an Addis Ababa day ("2026-11-25") begins. */
export function addisDayStart(day: string): Date {
  return new Date(`${day}T00:00:00+03:00`);
}
