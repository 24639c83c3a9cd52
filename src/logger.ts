import { isMainThread } from "node:worker_threads";
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

/**
 * Keys, tokens and account numbers must never reach a log line: values under these names are censored
 * wherever they appear in a line's object or a serialized error, down to `CENSORED_DEPTH` levels
 * (`req.headers.authorization`), as a second line of defence behind logging only what we choose. (A child
 * logger's bindings are written as given: the code binds only its own ids, a request's and a worker's.)
 */
const SECRET_NAMES = new Set(["authorization", "key", "apiKey", "token", "account_number", "accountNumber"]);
const CENSORED_DEPTH = 3;
const CENSOR = "[redacted]";

/**
 * `value` with every secret-named key censored, copied only where one is found. Not pino's `redact` paths:
 * with leading wildcards (`*.key`) fast-redact clones and restores every value of every line, ~30 KB of
 * garbage per verification (docs/performance.md), where this walks a few keys.
 */
export function censored<T>(value: T, depth = 0): T {
  if (
    depth >= CENSORED_DEPTH ||
    typeof value !== "object" ||
    value === null ||
    value instanceof Error || // left whole for its serializer, which censors what it writes
    ArrayBuffer.isView(value)
  ) {
    return value;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const inner = record[name];
    const replaced = SECRET_NAMES.has(name) ? CENSOR : censored(inner, depth + 1);
    if (replaced === inner) continue;
    copy ??= (Array.isArray(value) ? [...value] : { ...record }) as Record<string, unknown>;
    copy[name] = replaced;
  }
  return (copy ?? value) as T;
}

/** pino's error serializer, censored like the rest of a line (an error may carry a key or an account). */
export function serializeError(error: unknown): unknown {
  return censored(pino.stdSerializers.err(error as Error));
}

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
      formatters: { log: censored },
      serializers: { err: serializeError },
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
    const serialized = JSON.stringify(serializeError(error));
    return JSON.parse(serialized.split(secret).join(CENSOR));
  };
  return logger.child({}, { serializers: { err: scrub } });
}
