import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/**
 * SHA-256 (hex) of a request's canonical form: its parsed fields with keys sorted (so key order and JSON
 * spacing do not matter) and the SHA-256 of the uploaded file's bytes. The file's name and declared type are
 * left out: the service ignores them too.
 */
export async function requestFingerprint(
  fields: Record<string, unknown>,
  file: { path: string } | undefined,
): Promise<string> {
  const canonical = JSON.stringify({
    fields: sortedKeys(fields),
    file: file ? await fileDigest(file.path) : null,
  });
  return createHash("sha256").update(canonical).digest("hex");
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Streamed: an upload may be 10 MB and is never held in memory whole. */
async function fileDigest(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
