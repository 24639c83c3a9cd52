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

export function createLogger(level: string, destination?: DestinationStream): Logger {
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
