/**
 * Whether `node dist/service/main.js` starts as the primary of worker threads. Decided before the
 * configuration is read, because the primary never reads it (its first worker does, first-worker.ts): one
 * process when WEB_CONCURRENCY is 1, or unset on one core (the configuration's default is the number of cores). Any
 * other value starts a primary, whose first worker refuses a WEB_CONCURRENCY that is no valid number.
 */
export function startsPrimary(webConcurrency: string | undefined, cores: number): boolean {
  const given = webConcurrency?.trim() ?? "";
  return given === "" ? cores > 1 : given !== "1";
}
