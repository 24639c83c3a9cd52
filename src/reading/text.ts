/** Helpers shared by the receipt-text parsers: OCR clean-up, reference repair, link finding. */

const LOOKALIKE_DIGITS: Record<string, string> = {
  O: "0",
  o: "0",
  Q: "0",
  D: "0",
  I: "1",
  l: "1",
  i: "1",
  "|": "1",
  S: "5",
  s: "5",
  B: "8",
  Z: "2",
  z: "2",
  G: "6",
  g: "9",
};
// Receipt references are printed in capitals, so where a letter must stand OCR's lower-case l or a bar
// is an I (read as an L it would name another reference).
const LOOKALIKE_LETTERS: Record<string, string> = {
  "0": "O",
  "1": "I",
  "5": "S",
  "8": "B",
  "2": "Z",
  "6": "G",
  l: "I",
  "|": "I",
};

/**
 * Canonical form of receipt text: Unicode NFKC (full-width and ligatures), non-breaking and zero-width
 * spaces removed, line ends unified, runs of spaces collapsed. Line structure is kept.
 */
export function normalizeText(text: string): string {
  // Bank detection asks every bank's parser about the same text; each starts by normalising it.
  if (text === lastNormalized.text) return lastNormalized.result;
  const result = text
    .normalize("NFKC")
    .replace(/[\u200B-\u200D\uFEFF]/g, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[\t\u00A0\u2000-\u200A\u202F\u205F\u3000 ]+/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .join("\n");
  lastNormalized = { text, result };
  return result;
}

let lastNormalized = { text: "", result: "" };

/**
 * Repairs OCR confusions in a reference by its shape: `shape` has one character per position, `9` where a
 * digit must stand, `A` where a letter must stand, `X` where either may, or a literal character.
 * Returns null when the candidate cannot fit the shape.
 */
export function repairReference(candidate: string, shape: string): string | null {
  const raw = candidate.replace(/[\s-]/g, "");
  if (raw.length !== shape.length) return null;
  let out = "";
  for (let i = 0; i < shape.length; i++) {
    const want = shape[i] ?? "";
    let ch = raw[i] ?? "";
    if (want === "9") ch = /\d/.test(ch) ? ch : (LOOKALIKE_DIGITS[ch] ?? ch);
    else if (want === "A") ch = LOOKALIKE_LETTERS[ch] ?? ch.toUpperCase();
    else if (want === "X") ch = ch.toUpperCase();
    else if (ch.toUpperCase() !== want.toUpperCase()) ch = LOOKALIKE_LETTERS[ch] === want ? want : ch;
    else ch = want;
    const ok =
      want === "9"
        ? /\d/.test(ch)
        : want === "A"
          ? /[A-Z]/.test(ch)
          : want === "X"
            ? /[A-Z0-9]/.test(ch)
            : ch === want;
    if (!ok) return null;
    out += ch;
  }
  return out;
}

/**
 * Every http(s) URL in the text, with trailing punctuation of prose removed: first as the links read when
 * rejoined across line breaks (joinWrappedLinks), then as printed, each once. A caller takes the first its
 * bank's link pattern accepts, so a join that does not fit the pattern falls back to the printed link.
 */
export function findUrls(text: string): string[] {
  const urls = (source: string) =>
    [...source.matchAll(/https?:\/\/[^\s<>"'()]+/gi)].map((match) =>
      match[0].replace(/[.,;:!?)\]}>'"]+$/, ""),
    );
  const joined = joinWrappedLinks(text);
  return joined === text ? urls(text) : [...new Set([...urls(joined), ...urls(text)])];
}

/** A line's last word that is, or is the start of, a link: a scheme, or a host followed by a path. */
const LINK_AT_LINE_END = /(?:^|\s)(?:https?:\/\/\S*|[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*\.[a-z]{2,}[./]\S*)$/i;
/** What the rest of a link can be made of; "9:57 PM" under an SMS is its time, not its link's end. */
const LINK_PART = /^(?!\d{1,2}:\d{2}(?!\d))[A-Za-z0-9\-._~%/?#=&+:]+[)\].,;!?'"]*$/;
/** A link cut after "://", inside its host, or after "-", "?", "=" or "&": unfinished whatever follows. */
const UNFINISHED_LINK = /(?::\/\/|:\/\/[^/\s]*\.|[?=&-])$/;
/** Words of prose that start a line after a link ("Thank", "for", "ETB", Amharic): never a link's rest. */
const PROSE_WORD = /^(?:[A-Z]?[a-z]{2,}|[A-Z]{2,4}|.*\P{ASCII}.*)[.,;:!?]*$/u;
/** A line that is an amount with its currency ("11950 birr", "1,500.00 ETB"): the cashier's note, not a link's rest. */
const AMOUNT_LINE = /^\d[\d,.]*\s*(?:ETB|Birr|Br\.?|ብር)$/iu;

/**
 * The text with every link that a phone or OCR broke across lines put back on one line: a line ending in
 * a link continues with the next line's first word unless the link looks finished and that word is prose
 * ("Thank", "for", "ETB"), across at most three breaks
 * (an SMS bubble wraps a long link mid-token, after "-2", at "?"; OCR keeps those breaks).
 */
const EDGE_MARK = /^[@©®|~•·]\s+/;

export function joinWrappedLinks(text: string): string {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length - 1; i++) {
    for (let joins = 0; joins < 3 && i + 1 < lines.length; joins++) {
      const line = (lines[i] ?? "").trimEnd();
      const printed = (lines[i + 1] ?? "").trim();
      // OCR reads an icon at the bubble's edge as a mark before the link's rest ("@ Z4/pdf").
      const next = printed.replace(EDGE_MARK, "");
      const word = next.split(/\s+/)[0] ?? "";
      if (!LINK_PART.test(word) || !LINK_AT_LINE_END.test(line) || AMOUNT_LINE.test(next)) break;
      if (!UNFINISHED_LINK.test(line) && PROSE_WORD.test(word)) break;
      lines[i] = line + word;
      const rest = next.slice(word.length).trim();
      if (rest) {
        lines[i + 1] = rest;
        break;
      }
      lines.splice(i + 1, 1);
    }
  }
  return lines.join("\n");
}

/**
 * Receipt text as every reader gets it: line ends unified and a 12-hour clock's AM/PM that wrapped onto
 * the next line (a narrow receipt column, copied text) put back beside its time.
 */
export function prepareReceiptText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(
      /([0-9Oo]{1,2}:[0-9Oo]{2}(?::[0-9Oo]{2})?)[ \t]*(?:\n[ \t]*)+([AaPp]\.?[Mm]\.?)(?=\s|$)/g,
      "$1 $2",
    );
}
