/**
 * Rebuilds a receipt's rows from where tesseract found its words. On two-column receipts (a label column
 * and a value column) tesseract's page segmentation reads one column, then the other, and the pairs are
 * lost; put back by position, each label sits beside its value again, as the text readers expect.
 */

/** One word as tesseract's TSV output lists it: its box in pixels and its confidence (0–100). */
export interface OcrWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number;
  /** Tesseract's own line the word belongs to (block, paragraph, line numbers). */
  line: string;
}

/** The words of tesseract's TSV output (level 5 rows); the header and the other levels are skipped. */
export function wordsOfTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split("\n")) {
    const cells = row.split("\t");
    if (cells[0] !== "5" || cells.length < 12) continue;
    const text = withoutDoubledGlyph(withJ(cells.slice(11).join("\t").trim()));
    if (!text) continue;
    words.push({
      text,
      left: Number(cells[6]),
      top: Number(cells[7]),
      width: Number(cells[8]),
      height: Number(cells[9]),
      confidence: Number(cells[10]),
      line: `${cells[2]}.${cells[3]}.${cells[4]}`,
    });
  }
  return words;
}

/**
 * OCR reads a J inside an upper-case code as ")" (FT26083X)RMH); nothing else puts one between the letters
 * and digits of one word.
 */
function withJ(word: string): string {
  return /\d/.test(word) ? word.replace(/(?<=[A-Z0-9])\)(?=[A-Z0-9])/g, "J") : word;
}

/**
 * OCR sometimes reads one capital of a code twice, first as its small twin (FT26224cC89JI for FT26224C89JI):
 * in a code of capitals and digits, its one small letter is dropped when its own capital follows. Mixed-case
 * tokens (CBE's v2-… links) have many small letters and are left alone.
 */
function withoutDoubledGlyph(word: string): string {
  const doubled = /^(?=.*\d)([A-Z0-9]+)([a-z])([A-Z0-9]+)$/.exec(word);
  if (!doubled?.[1] || !doubled[2] || !doubled[3]) return word;
  return doubled[3].startsWith(doubled[2].toUpperCase()) ? doubled[1] + doubled[3] : word;
}

interface Row {
  words: OcrWord[];
  top: number;
  bottom: number;
}

/**
 * The text row by row, top to bottom, words left to right. Tesseract's lines are the units (within a
 * block it orders words well); lines of different blocks that share most of their height are one row,
 * joined with a tab where a column gap separates them.
 */
export function rowsText(words: readonly OcrWord[]): string {
  const rows: Row[] = [];
  for (const line of linesOf(words).sort((a, b) => a.top - b.top)) {
    const row = rows.find((candidate) => sharesHeight(candidate, line));
    if (row) {
      row.words.push(...line.words);
      row.top = Math.min(row.top, line.top);
      row.bottom = Math.max(row.bottom, line.bottom);
    } else rows.push({ ...line, words: [...line.words] });
  }
  return rows
    .sort((a, b) => a.top + a.bottom - (b.top + b.bottom))
    .map((row) => withFinalJ(rowText(row)))
    .join("\n");
}

// --- internal helpers ---

function linesOf(words: readonly OcrWord[]): Row[] {
  const lines = new Map<string, Row>();
  for (const word of words) {
    const line = lines.get(word.line);
    const bottom = word.top + word.height;
    if (line) {
      line.words.push(word);
      line.top = Math.min(line.top, word.top);
      line.bottom = Math.max(line.bottom, bottom);
    } else lines.set(word.line, { words: [word], top: word.top, bottom });
  }
  return [...lines.values()];
}

/** Two lines are one row when their vertical overlap is at least half the shorter one's height. */
function sharesHeight(a: Row, b: Row): boolean {
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap >= 0.5 * Math.min(a.bottom - a.top, b.bottom - b.top);
}

/**
 * A J ending an upper-case code reads as ")" too (851ULKI2601300R)): a code has digits, and a row that
 * opened no bracket cannot be closing one. A name's bracket may have opened on the row above ("(HABTAMU" /
 * "DEMISSIE)"), so a word of letters keeps it.
 */
function withFinalJ(text: string): string {
  if (text.includes("(")) return text;
  return text.replace(/(?<=(?:^|\s)(?=[A-Z0-9]*\d)[A-Z0-9]{4,})\)(?=\s|$)/g, "J");
}

function rowText(row: Row): string {
  const words = row.words.sort((a, b) => a.left - b.left);
  const height = median(words.map((word) => word.height));
  let text = "";
  let right = Number.NEGATIVE_INFINITY;
  for (const word of words) {
    // A gap of a few letters' widths is a column gap, not a space between words.
    if (text) text += word.left - right > 2 * height ? "\t" : " ";
    text += word.text;
    right = Math.max(right, word.left + word.width);
  }
  return text;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
