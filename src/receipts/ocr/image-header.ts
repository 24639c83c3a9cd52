/**
 * Reads an image's format and pixel size from its first bytes, so a decompression bomb (a small file that
 * claims 100 megapixels) is refused before anything allocates the pixels, and anything that is not PNG,
 * JPEG or WEBP (SVG, PDF, HTML sent as a "photo") never reaches a decoder.
 */

/** Larger images are refused from their header (OCR and QR decoding alike). */
export const DEFAULT_MAX_PIXELS = 40_000_000;

export type ImageFormat = "png" | "jpeg" | "webp";

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** The header's format and size, or null when the bytes are not a PNG, JPEG or WEBP with a readable size. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const header = png(bytes) ?? jpeg(bytes) ?? webp(bytes);
  if (!header || header.width <= 0 || header.height <= 0) return null;
  return header;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 24 || !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return null;
  // The first chunk must be IHDR: length (4), type (4), then width and height, big-endian.
  if (ascii(bytes, 12, 4) !== "IHDR") return null;
  return { format: "png", width: uint32be(bytes, 16), height: uint32be(bytes, 20) };
}

function jpeg(bytes: Uint8Array): ImageHeader | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes (FF FF …) and markers without a length (TEM, RSTn) carry no segment.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    // Start of scan or end of image before any frame header: no size to trust.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = uint16be(bytes, offset + 2);
    if (length < 2) return null;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision (1), height (2), width (2).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > bytes.length) return null;
      return { format: "jpeg", height: uint16be(bytes, offset + 5), width: uint16be(bytes, offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

function webp(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WEBP") return null;
  const chunk = ascii(bytes, 12, 4);
  const data = 20;
  if (chunk === "VP8 ") {
    // Lossy: 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height (2 scale bits each).
    if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return null;
    return {
      format: "webp",
      width: uint16le(bytes, data + 6) & 0x3fff,
      height: uint16le(bytes, data + 8) & 0x3fff,
    };
  }
  if (chunk === "VP8L") {
    // Lossless: signature 0x2F, then width-1 and height-1 as 14-bit little-endian bit fields.
    if (bytes[data] !== 0x2f) return null;
    const bits = uint32le(bytes, data + 1);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    // Extended: flags (4), then canvas width-1 and height-1 as 24-bit little-endian.
    return { format: "webp", width: uint24le(bytes, data + 4) + 1, height: uint24le(bytes, data + 7) + 1 };
  }
  return null;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function byte(bytes: Uint8Array, offset: number): number {
  return bytes[offset] ?? 0;
}

function uint16be(bytes: Uint8Array, offset: number): number {
  return (byte(bytes, offset) << 8) | byte(bytes, offset + 1);
}

function uint32be(bytes: Uint8Array, offset: number): number {
  return ((byte(bytes, offset) << 24) >>> 0) + (uint16be(bytes, offset + 1) << 8) + byte(bytes, offset + 3);
}

function uint16le(bytes: Uint8Array, offset: number): number {
  return byte(bytes, offset) | (byte(bytes, offset + 1) << 8);
}

function uint24le(bytes: Uint8Array, offset: number): number {
  return uint16le(bytes, offset) | (byte(bytes, offset + 2) << 16);
}

function uint32le(bytes: Uint8Array, offset: number): number {
  return (uint24le(bytes, offset) | (byte(bytes, offset + 3) << 24)) >>> 0;
}
