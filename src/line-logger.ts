/**
 * The log lines of a process that loads no logging library: the primary of worker threads
 * (src/serve/primary.ts), which stays a bare `node` in memory. Lines have pino's shape as the service's
 * logger (src/logger.ts) writes them (numeric level, ISO time, `service`, the fields, `msg` last), so one
 * log reads as one stream.
 * pino's Logger satisfies the interface, so code shared with the workers takes either.
 */
export type LogFields = Record<string, unknown>;
export type LogMethod = (fieldsOrMessage: LogFields | string, message?: string) => void;

export interface LineLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  fatal: LogMethod;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** `level` as LOG_LEVEL names it ("silent" writes nothing). Lines go to stdout, synchronously on Linux. */
export function createLineLogger(
  level: string,
  write: (line: string) => void = (line) => process.stdout.write(line),
): LineLogger {
  const threshold = level in LEVELS ? LEVELS[level as keyof typeof LEVELS] : Number.POSITIVE_INFINITY;
  const at =
    (value: number): LogMethod =>
    (fieldsOrMessage, message) => {
      if (value < threshold) return;
      const fields = typeof fieldsOrMessage === "string" ? {} : withErrors(fieldsOrMessage);
      const msg = typeof fieldsOrMessage === "string" ? fieldsOrMessage : message;
      const line = { level: value, time: new Date().toISOString(), service: "birrcheck", ...fields, msg };
      write(`${JSON.stringify(line)}\n`);
    };
  return { debug: at(20), info: at(30), warn: at(40), error: at(50), fatal: at(60) };
}

/**
 * Errors as pino's serializer writes them: their type, message and stack, then their own fields (a system
 * error's `code`, `syscall`, `port`), not `{}`.
 */
function withErrors(fields: LogFields): LogFields {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      value instanceof Error
        ? {
            type: value.name,
            message: value.message,
            stack: value.stack,
            ...Object.fromEntries(Object.entries(value)),
          }
        : value,
    ]),
  );
}
