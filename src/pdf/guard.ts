import { constants, inflateSync } from "node:zlib";
import { UnreadablePdfError } from "./text.js";

/**
 * Decoded bytes a receipt PDF may hold across its streams. A bank receipt holds well under 1 MB (pages,
 * fonts, a logo); pdf.js keeps every stream it decodes in memory, at about 2.7 times the decoded size
 * (a 200 kB upload whose content stream inflates to 200 MB took 540 MB of RSS), so a 10 MB upload could
 * otherwise ask for gigabytes.
 */
export const MAX_PDF_DECODED_BYTES = 32 * 1024 * 1024;
/** A receipt has tens of streams; hundreds of thousands of tiny ones only cost time. */
export const MAX_PDF_STREAMS = 5_000;

export const PDF_TOO_LARGE = "The PDF is too large to read.";
const UNREADABLE = "The PDF could not be read.";

/** LZW's largest expansion: one 9–12-bit code stands for at most 4096 bytes. */
const LZW_MAX_RATIO = 4096 / 1.125;
/** Image codecs: pdf.js does not decode images to extract text. */
const IMAGE_FILTERS = new Set(["DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode"]);

/**
 * Refuses a compression bomb before pdf.js opens the document, allocating no more than the cap itself.
 * Each stream is measured by an upper bound of what pdf.js could decode from it, whatever its dictionary
 * claims: its data is inflated up to the end of the file (zlib stops at the end of its own stream, so a
 * lying /Length or a fake "endstream" hides nothing), and so is every ASCIIHex, ASCII85 or run-length
 * decoding of it, whether or not /Filter names them (#-escaped and indirect names hide nothing either).
 * A dictionary whose start cannot be found, an LZW stream that could pass the cap or wraps another
 * filter, or more than MAX_PDF_STREAMS streams, is refused.
 */
export function assertPdfNotBomb(data: Uint8Array, max = MAX_PDF_DECODED_BYTES): void {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const text = bytes.toString("latin1");
  const objects = objectOffsets(text);
  let budget = max;
  let count = 0;
  // Each stream is measured once and the scan goes on after its data, so the work stays linear in the file.
  let next = 0;
  for (let keyword = text.indexOf("stream"); keyword !== -1; keyword = text.indexOf("stream", keyword + 6)) {
    if (keyword < next || text.startsWith("end", keyword - 3)) continue;
    const dictionary = dictionaryBefore(text, keyword);
    if (dictionary === null) continue;
    if (dictionary === "unbalanced") throw new UnreadablePdfError(UNREADABLE);
    count += 1;
    if (count > MAX_PDF_STREAMS) throw new UnreadablePdfError(PDF_TOO_LARGE);
    let start = keyword + 6;
    if (bytes[start] === 0x0d) start += 1;
    if (bytes[start] === 0x0a) start += 1;
    const end = dataEnd(text, start, dictionary, objects);
    const measured = measure(
      bytes.subarray(start),
      end - start,
      filtersOf(dictionary, text, objects),
      budget,
    );
    if (measured === "too-large") throw new UnreadablePdfError(PDF_TOO_LARGE);
    if (measured === "unreadable") throw new UnreadablePdfError(UNREADABLE);
    budget -= measured;
    next = end;
  }
}

/**
 * Where pdf.js ends a stream's data: at /Length when "endstream" follows there, else at the next
 * "endstream" (or the end of the file).
 */
function dataEnd(text: string, start: number, dictionary: string, objects: Map<string, number>): number {
  const match = /\/Length\s+(\d+\s+\d+\s+R|\d+)/.exec(dictionary);
  let length = Number.NaN;
  const reference = match?.[1] && /^(\d+)\s+(\d+)\s+R$/.exec(match[1]);
  if (reference) {
    const offset = objects.get(`${reference[1]} ${reference[2]}`);
    if (offset !== undefined) length = Number(/^\s*(\d+)/.exec(text.slice(offset, offset + 64))?.[1]);
  } else if (match?.[1]) {
    length = Number(match[1]);
  }
  if (Number.isSafeInteger(length) && start + length <= text.length) {
    if (/^\s*endstream/.test(text.slice(start + length, start + length + 64))) return start + length;
  }
  const end = text.indexOf("endstream", start);
  return end === -1 ? text.length : end;
}

type Measured = number | "too-large" | "unreadable";

/**
 * The most bytes pdf.js could decode from one stream, or why it is refused. Inflation may run past the
 * stream's end (zlib stops at the end of its own data, so that bounds what pdf.js would get); the ASCII and
 * run-length readers stay within the stream's `length` bytes.
 */
function measure(data: Buffer, length: number, filters: string[] | null, budget: number): Measured {
  if (filters === null) return "unreadable";
  // LZW is not decoded here: refused when its worst case could pass the cap, or when more filters follow.
  const lzw = filters.findIndex((filter) => filter === "LZWDecode" || filter === "LZW");
  if (lzw !== -1 && (lzw < filters.length - 1 || length * LZW_MAX_RATIO > budget)) return "too-large";
  const own = data.subarray(0, length);
  const first = filters[0];
  const runs = first === "RunLengthDecode" || first === "RL" ? runLength(own, budget) : null;
  if (runs === "too-large") return runs;
  let size = runs?.length ?? 0;
  // The data as it is (inflated up to the end of the file: zlib stops at the end of its own stream), and
  // every ASCII or run-length decoding of it, each inflated in turn.
  const pending: { bytes: Buffer; depth: number }[] = [{ bytes: data, depth: 0 }];
  if (runs) pending.push({ bytes: runs, depth: 1 });
  const ascii = (bytes: Buffer, depth: number) => {
    const owned = depth === 0 ? own : bytes;
    for (const decoded of [asciiHex(owned), ascii85(owned, budget)]) {
      if (decoded && depth < 4) pending.push({ bytes: decoded, depth: depth + 1 });
    }
  };
  for (let item = pending.shift(); item; item = pending.shift()) {
    const inflated = inflatedSize(item.bytes, budget);
    if (inflated === "too-large") return inflated;
    size = Math.max(size, inflated, item.depth > 0 ? item.bytes.length : 0);
    ascii(item.bytes, item.depth);
  }
  return size;
}

/** Offsets of "N G obj" headers, to resolve an indirect /Filter. */
function objectOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const match of text.matchAll(/(\d{1,10})\s+(\d{1,5})\s+obj\b/g)) {
    offsets.set(`${match[1]} ${match[2]}`, (match.index ?? 0) + match[0].length);
  }
  return offsets;
}

/** How far back a stream's dictionary may start; real ones are a few hundred bytes. */
const MAX_DICTIONARY = 16 * 1024;

/**
 * The `<< … >>` right before a stream keyword, matched by nesting; null when the keyword does not follow a
 * dictionary, "unbalanced" when no start is found within reach (hiding a filter behind padding).
 */
function dictionaryBefore(text: string, keyword: number): string | "unbalanced" | null {
  let i = keyword - 1;
  while (i > 0 && keyword - i < 256 && /\s/.test(text[i] ?? "")) i -= 1;
  if (text[i] !== ">" || text[i - 1] !== ">") return null;
  const floor = Math.max(0, keyword - MAX_DICTIONARY);
  let depth = 0;
  for (; i > floor; i -= 1) {
    if (text[i] === ">" && text[i - 1] === ">") {
      depth += 1;
      i -= 1;
    } else if (text[i] === "<" && text[i - 1] === "<") {
      depth -= 1;
      i -= 1;
      if (depth === 0) return text.slice(i, keyword);
    }
  }
  return "unbalanced";
}

/** Filter names in order (#-escapes decoded, an indirect value resolved); null when it cannot be resolved. */
function filtersOf(dictionary: string, text: string, objects: Map<string, number>): string[] | null {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+|\d+\s+\d+\s+R)/.exec(decodeNames(dictionary));
  const value = match?.[1];
  if (!value) return [];
  const reference = /^(\d+)\s+(\d+)\s+R$/.exec(value);
  if (!reference) return names(value);
  const offset = objects.get(`${reference[1]} ${reference[2]}`);
  if (offset === undefined) return null;
  const target = /^\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(decodeNames(text.slice(offset, offset + 1024)));
  return target?.[1] ? names(target[1]) : null;
}

function names(value: string): string[] {
  return [...value.matchAll(/\/([^\s/[\]<>()]+)/g)]
    .map((name) => name[1] ?? "")
    .filter((name) => !IMAGE_FILTERS.has(name));
}

function decodeNames(value: string): string {
  return value.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Bytes zlib produces from the data (stopping at its own end), or "too-large" past the budget. */
function inflatedSize(data: Buffer, budget: number): number | "too-large" {
  // pdf.js refuses a Flate stream without a valid zlib header, so only those can be bombs.
  const cmf = data[0] ?? 0;
  const flg = data[1] ?? 0;
  if ((cmf & 0x0f) !== 8 || (cmf * 256 + flg) % 31 !== 0) return 0;
  try {
    // Damaged or truncated streams are read as far as they go, as pdf.js does.
    return inflateSync(data, {
      maxOutputLength: Math.max(1, budget + 1),
      finishFlush: constants.Z_SYNC_FLUSH,
    }).length;
  } catch (error) {
    return (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? "too-large" : 0;
  }
}

/** The data decoded as ASCIIHex (digits and whitespace up to ">"), or null when it is not that. */
function asciiHex(data: Buffer): Buffer | null {
  const end = data.indexOf(">");
  if (end < 2) return null;
  const digits = data.toString("latin1", 0, end).replace(/\s/g, "");
  if (!/^[0-9A-Fa-f]+$/.test(digits)) return null;
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, "hex");
}

/** The data decoded as ASCII85 (up to "~>"), or null when it is not that; never more than the budget. */
function ascii85(data: Buffer, budget: number): Buffer | null {
  const end = data.indexOf("~>");
  if (end < 5) return null;
  const text = data.toString("latin1", 0, end).replace(/\s/g, "");
  if (!/^[!-uz]+$/.test(text)) return null;
  const out = Buffer.alloc(Math.min(budget + 4, text.length * 4));
  let size = 0;
  let group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < count - 1 && size < out.length; i++) {
      out[size++] = Math.floor(value / 2 ** (24 - 8 * i)) & 0xff;
    }
    group = [];
  };
  for (const char of text) {
    if (size >= out.length) break;
    if (char === "z" && group.length === 0) {
      size = Math.min(out.length, size + 4);
      continue;
    }
    group.push(char.charCodeAt(0) - 33);
    if (group.length === 5) flush(5);
  }
  if (group.length > 0) flush(group.length);
  return out.subarray(0, size);
}

/** RunLengthDecode data decoded (up to its end-of-data mark), or "too-large" past the budget. */
function runLength(data: Buffer, budget: number): Buffer | "too-large" {
  // A 2-byte run stands for at most 128 bytes.
  const out = Buffer.alloc(Math.min(budget + 128, data.length * 64));
  let size = 0;
  let i = 0;
  while (i < data.length) {
    const length = data[i] ?? 128;
    if (length === 128) break;
    const count = length < 128 ? length + 1 : 257 - length;
    if (size + count > budget) return "too-large";
    if (length < 128) {
      size += data.copy(out, size, i + 1, i + 1 + count);
      i += count + 1;
    } else {
      out.fill(data[i + 1] ?? 0, size, size + count);
      size += count;
      i += 2;
    }
  }
  return out.subarray(0, size);
}
