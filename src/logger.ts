import { isMainThread } from "node:worker_threads";
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

/**
 * Keys, tokens and account numbers must never reach a log line: these paths are censored wherever they
 * appear, as a second line of defence behind logging only what we choose.
 */
const REDACT = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "key",
  "*.key",
  "apiKey",
  "token",
  "*.token",
  "account_number",
  "*.account_number",
  "accountNumber",
  "*.accountNumber",
];

/**
 * Lines go to standard output. A worker thread writes each at once: pino flushes its buffered writes when a
 * process exits, not when a thread does, and a worker's last lines (why it stops) are the ones that matter.
 */
export function createLogger(
  level: string,
  destination: DestinationStream | undefined = isMainThread
    ? undefined
    : pino.destination({ dest: 1, sync: true }),
): Logger {
  return pino(
    {
      level,
      base: { service: "birrcheck" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: "[redacted]" },
    },
    destination,
  );
}

/**
 * A logger whose errors never show `secret`: HTTP client errors quote the URL they failed on, and the Bot
 * API puts the bot token in every URL.
 */
export function withoutSecretInErrors(logger: Logger, secret: string): Logger {
  const scrub = (error: unknown): unknown => {
    const serialized = JSON.stringify(pino.stdSerializers.err(error as Error));
    return JSON.parse(serialized.split(secret).join("[redacted]"));
  };
  return logger.child({}, { serializers: { err: scrub } });
}
