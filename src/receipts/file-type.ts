import { open } from "node:fs/promises";

export type ReceiptFileType = "pdf" | "jpeg" | "png" | "webp";

/**
 * The type of an uploaded receipt by its first bytes; the name and the declared content type are never
 * trusted. PDF readers accept a header within the first 1024 bytes, so we do too.
 */
export function sniffFileType(head: Uint8Array): ReceiptFileType | null {
  const bytes = Buffer.from(head);
  if (bytes.subarray(0, 1024).includes("%PDF-")) return "pdf";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "webp";
  return null;
}

/** Reads the first bytes of a file for sniffFileType. */
export async function readHead(path: string, length = 1024): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
