/**
 * fast-check generators of hostile API input: strings no client should send, JSON of every wrong shape,
 * raw JSON text JSON.stringify cannot produce (duplicate keys, deep nesting), odd path ids and query
 * strings, and multipart bodies written byte by byte (so boundaries, headers and parts can lie).
 */
import fc from "fast-check";
import { BANK_CODES } from "../../src/banks/codes.js";

// --- strings ---

/** Characters that break naive code: NUL, controls, bidi overrides, zero-width, lone surrogates, emoji. */
const NASTY_CHARS = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\b",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u200b",
  "\u200d",
  "\u202e",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\ufffd",
  "\ud800",
  "\udfff",
  "😀",
  "👨‍👩‍👧",
  "ብር",
  "١٢٣",
  "％",
  "'",
  '"',
  "\\",
  "%",
  "%00",
  "${",
  "{{",
  "<script>",
  "' OR 1=1 --",
  "../",
] as const;

/** Sizes around the limits of the contract and the service (34, 64, 100, 2048 characters). */
const EDGE_LENGTHS = [0, 1, 34, 35, 64, 65, 100, 101, 2048, 2049] as const;

/** Around the 50,000-character receipt_text limit and past the 256 kB JSON body limit. */
const HUGE_LENGTHS = [50_000, 50_001, 100_000, 300_000] as const;

/** Strings that look like what a field expects, so validation gets past its first rule. */
export const plausibleString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...BANK_CODES),
  fc.constantFrom("CBE", " cbe ", "telebirr\u0000", "ｃｂｅ", "cbe\u200b"),
  fc.stringMatching(/^[A-Z0-9]{6,24}$/),
  fc.stringMatching(/^FT[0-9]{5}[A-Z0-9]{5}$/),
  fc.stringMatching(/^[0-9]{1,40}$/),
  fc.stringMatching(/^[0-9 -]{1,40}$/),
  fc.constantFrom("true", "false", "1", "0", "yes", "null", "NaN", "Infinity", "-0", "1e309"),
);

/** Hostile text: random Unicode (including lone surrogates), nasty characters, edge lengths, plausible values. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...NASTY_CHARS), fc.string({ maxLength: 4 })), { maxLength: 12 })
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...EDGE_LENGTHS), fc.constantFrom("x", "9", " ", "é", "ብ", "\u0000", "😀"))
      .map(([length, unit]) => unit.repeat(length)),
  },
  { weight: 3, arbitrary: plausibleString },
);

// --- JSON values ---

/** Strings of 50,000 characters and more; costly to send, so generated rarely. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom("x", " ", "ብ", "\u0000", "😀"))
  .map(([length, unit]) => unit.repeat(length));

/** Any JSON value, with hostile strings and numbers JSON can carry (huge, negative, fractional). */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: hostileString },
  { weight: 1, arbitrary: hugeString },
  {
    weight: 6,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.constantFrom(0, -1, 1, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER, 1e21, -1e21, 1.5),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    ),
  },
  { weight: 3, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 3, arbitrary: fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 5 }) },
);

/** An object with some of the endpoint's own fields (wrong or right types) and some foreign ones. */
export function fieldsObject(fields: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const value = fc.oneof({ weight: 3, arbitrary: hostileValue }, { weight: 2, arbitrary: plausibleString });
  return fc
    .tuple(
      fc.subarray([...fields]),
      fc.array(fc.tuple(fc.oneof(hostileString, fc.constantFrom(...PROTOTYPE_KEYS)), hostileValue), {
        maxLength: 3,
      }),
    )
    .chain(([chosen, foreign]) =>
      fc
        .tuple(...chosen.map(() => value))
        .map((values) =>
          Object.fromEntries([...foreign, ...chosen.map((field, i) => [field, values[i]] as const)]),
        ),
    );
}

const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"] as const;

/**
 * JSON text as a hostile client writes it: objects with duplicate or prototype keys, nesting thousands of
 * levels deep, top-level non-objects, broken syntax, a BOM, or no body at all.
 */
export function rawJsonBody(fields: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...fields, ...PROTOTYPE_KEYS), hostileString);
  const member = fc.tuple(key, hostileValue).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return fc.oneof(
    {
      weight: 4,
      // Duplicate keys: the same field twice with different values.
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), hostileValue, hostileValue, fc.array(member, { maxLength: 3 }))
        .map(([field, a, b, rest]) => {
          const k = JSON.stringify(field);
          return `{${[`${k}:${JSON.stringify(a)}`, ...rest, `${k}:${JSON.stringify(b)}`].join(",")}}`;
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer({ min: 10, max: 60_000 }), fc.constantFrom("[", '{"a":', '{"__proto__":'))
        .map(([depth, open]) => {
          const close = open === "[" ? "]" : "}";
          return `${open.repeat(depth)}1${close.repeat(depth)}`;
        }),
    },
    {
      weight: 1,
      // Nested deeper than the body limit allows to close: the parser has to give up, not the process.
      arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((depth) => "[".repeat(depth)),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? "null") },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "{",
        "}",
        "{}}",
        "{,}",
        "{'bank':'cbe'}",
        '{"bank":"cbe",}',
        "\ufeff{}",
        "{}\u0000",
        '{"a":1}{"b":2}',
        "NaN",
        "undefined",
        "[]",
        "null",
        '{"bank":"\\ud800"}',
        '{"bank":"\\u0000"}',
        '{"ids":[1,2,3e400]}',
        '{"limit":1e400}',
      ),
    },
    { weight: 1, arbitrary: hostileString },
  );
}

// --- paths and query strings ---

/**
 * Node's HTTP parser answers a request line and headers over 16 KB itself (a bare 431, before the app
 * sees the request), so generated URL parts stay below that once percent-encoded (at most 3 bytes per
 * UTF-8 byte); a cut may leave a broken %-escape, on purpose.
 */
const MAX_URL_PART_BYTES = 9000;

function capUrlPart(value: string): string {
  let out = "";
  let bytes = 0;
  for (const char of value) {
    bytes += Buffer.byteLength(char) * 3;
    if (bytes > MAX_URL_PART_BYTES) break;
    out += char;
  }
  return out;
}

/** Path segments in the place of `{id}`: numbers of every size and sign, words, encodings, traversal. */
export const pathIdSegment: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom(
    "0",
    "1",
    "2",
    "3",
    "-1",
    "01",
    "1.0",
    "1e3",
    "0x10",
    "2147483647",
    "2147483648",
    "9007199254740993",
    "99999999999999999999999999",
    "abc",
    "bulk",
    "null",
    "%00",
    "%",
    "%zz",
    "%E0%A4%A",
    "%C0%AF",
    "..%2F..%2Fbanks",
    "1%20",
    "%2e%2e",
    "１",
    "1;DROP",
  ),
  hostileString.map((value) => capUrlPart(encodeURIComponent(toWellFormed(value)))),
);

/** A query string with the history endpoint's parameters (right and wrong values, repeated, bracketed). */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("limit", "period", "success", "limit[]", "limit[a]", "success[]", ""),
        hostileString,
      ),
      fc.oneof(
        fc.constantFrom("1", "500", "501", "0", "-1", "1.5", "1e2", " 7 ", "7d", "12m", "1y", "true", "1"),
        hostileString,
      ),
      fc.boolean(),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs
      .map(([key, value, raw]) =>
        raw
          ? `${encodeURIComponent(toWellFormed(key))}=${encodeURIComponent(toWellFormed(value))}`
          : `${key.replace(/[#\s]/g, "")}=${value.replace(/[#\s]/g, "")}`,
      )
      .join("&"),
  )
  .map(capUrlPart);

function toWellFormed(value: string): string {
  return value.replace(/[\ud800-\udfff]/g, "\ufffd");
}

// --- multipart ---

/** One part of a hand-written multipart body. */
export interface RawPart {
  name: string;
  filename?: string;
  type?: string;
  data: Uint8Array;
}

const FILE_HEADS = {
  pdf: "%PDF-1.4\n",
  png: "\x89PNG\r\n\x1a\n",
  jpeg: "\xff\xd8\xff\xe0",
  webp: "RIFF\x00\x00\x00\x00WEBPVP8 ",
  gif: "GIF89a",
  zip: "PK\x03\x04",
  html: "<html>",
  none: "",
} as const;

/** File contents: a real format's magic bytes (or none) followed by random bytes. */
const fileBytes: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.constantFrom(...Object.values(FILE_HEADS)), fc.uint8Array({ maxLength: 2048 }))
  .map(([head, tail]) => new Uint8Array([...Buffer.from(head, "latin1"), ...tail]));

const partName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("receipt_file", "receipt_text", "bank", "account_number") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "file",
      "receipt",
      "receipt_file[]",
      "transaction_number",
      "receipt_url",
      "bank_account_id",
      "__proto__",
      "",
    ),
  },
  { weight: 1, arbitrary: hostileString.map((value) => value.replace(/["\r\n]/g, "")) },
);

const partType = fc.constantFrom(
  undefined,
  "application/pdf",
  "image/png",
  "image/jpeg",
  "text/plain",
  "application/octet-stream",
  "application/zip",
  "multipart/mixed",
  "image/svg+xml",
);

const textPart: fc.Arbitrary<RawPart> = fc
  .tuple(partName, fc.oneof(hostileString, plausibleString))
  .map(([name, text]) => ({ name, data: new TextEncoder().encode(text) }));

const filePart: fc.Arbitrary<RawPart> = fc
  .tuple(partName, fc.oneof(fc.constant("receipt.pdf"), hostileString), partType, fileBytes)
  .map(([name, filename, type, data]) => ({
    name,
    filename: filename.replace(/["\r\n]/g, ""),
    ...(type ? { type } : {}),
    data,
  }));

/** How the body is framed: correctly, or broken in one of the ways a hostile client breaks it. */
const FRAMINGS = [
  "ok",
  "ok",
  "ok",
  "no-closing",
  "wrong-boundary",
  "no-boundary-param",
  "truncated",
  "lf-only",
] as const;
export type Framing = (typeof FRAMINGS)[number];

export interface RawMultipart {
  contentType: string;
  body: Uint8Array;
}

/** A multipart/form-data body written by hand: zero to three parts, any names, optionally broken framing. */
export const rawMultipart: fc.Arbitrary<RawMultipart> = fc
  .tuple(
    fc.array(fc.oneof(textPart, filePart), { maxLength: 3 }),
    fc.constantFrom(...FRAMINGS),
    fc.stringMatching(/^[A-Za-z0-9'()+_,-./:=?]{1,60}$/),
  )
  .map(([parts, framing, boundary]) => encodeMultipart(parts, framing, boundary));

export function encodeMultipart(parts: RawPart[], framing: Framing, boundary: string): RawMultipart {
  const nl = framing === "lf-only" ? "\n" : "\r\n";
  const chunks: Uint8Array[] = [];
  const text = (value: string) => chunks.push(Buffer.from(value, "utf8"));
  const written = framing === "wrong-boundary" ? `${boundary}x` : boundary;
  for (const part of parts) {
    text(`--${written}${nl}`);
    const filename = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    text(`Content-Disposition: form-data; name="${part.name}"${filename}${nl}`);
    if (part.type) text(`Content-Type: ${part.type}${nl}`);
    text(nl);
    chunks.push(part.data);
    text(nl);
  }
  if (framing !== "no-closing") text(`--${written}--${nl}`);
  let body = Buffer.concat(chunks);
  if (framing === "truncated") body = body.subarray(0, Math.floor(body.length / 2));
  const contentType =
    framing === "no-boundary-param" ? "multipart/form-data" : `multipart/form-data; boundary="${boundary}"`;
  return { contentType, body };
}
