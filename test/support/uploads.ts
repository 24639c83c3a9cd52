import { readdir } from "node:fs/promises";
import { UPLOAD_DIR } from "../../api/middleware/multipart.js";

export interface UploadOptions {
  key: string;
  fields?: Record<string, string>;
  /** Each file: field name, bytes, the name and type the client claims (never trusted by the server). */
  files?: { field: string; bytes: Uint8Array; name?: string; type?: string }[];
}

/** A multipart/form-data POST, the way an integrator's HTTP client sends a receipt file. */
export async function postMultipart(baseUrl: string, path: string, options: UploadOptions) {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  for (const file of options.files ?? []) {
    const blob = new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" });
    form.append(file.field, blob, file.name ?? "receipt.bin");
  }
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.key}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Upload temp files still on disk; every request must leave none. */
export async function leftoverUploads(): Promise<string[]> {
  return readdir(UPLOAD_DIR);
}
