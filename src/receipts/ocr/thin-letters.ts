import type Tesseract from "tesseract.js";
import { thinLetter } from "./glyph-shapes.js";
import { CODE } from "./glyphs.js";
import type { PagePixels } from "./straightened.js";

/**
 * Marks that no reference or link token holds, which OCR gives a thin letter of a code it could not name:
 * CBE link tokens read as v2-58pGOb]poo… for …ObJpoo…, v2-|64B… for v2-J64B…, …Dgx]Mn… for …DgxlMn….
 * A mark counts only between a code's characters: "CBE!" and "(15%)" keep theirs.
 */
const MARK = /^[\]|}[{!]$/;
const BEFORE = /^[A-Za-z0-9/-]$/;
const AFTER = /^[A-Za-z0-9]$/;

/** A word of the page as tesseract read it, and as its thin letters spell it. */
export interface Respelling {
  read: string;
  spelled: string;
}

/**
 * The page with each mark inside a code read as the thin letter its shape shows (glyph-shapes.ts), at
 * confidence 0: OCR did not name that glyph, so the look-alike lookups try its other readings first. The
 * words so respelled are listed for the text, which is built from tesseract's TSV rather than these blocks.
 */
export function withThinLetters(
  blocks: readonly Tesseract.Block[],
  pixels: PagePixels,
): { blocks: Tesseract.Block[]; respelled: Respelling[] } {
  const respelled: Respelling[] = [];
  const respell = (word: Tesseract.Word): Tesseract.Word => {
    // A bar in a code of capitals (an FT reference) is an I; small letters stand only in mixed-case tokens.
    const capitals = !/[a-z]/.test(word.text);
    const letter = (symbol: Tesseract.Symbol) => {
      const thin = thinLetter(symbol, pixels);
      return capitals && thin === "l" ? "I" : thin;
    };
    const symbols = word.symbols.map((symbol, at) =>
      MARK.test(symbol.text) &&
      BEFORE.test(word.symbols[at - 1]?.text ?? "") &&
      AFTER.test(word.symbols[at + 1]?.text ?? "")
        ? { ...symbol, text: letter(symbol), confidence: 0 }
        : symbol,
    );
    const spelled = symbols.map((symbol) => symbol.text).join("");
    const read = word.symbols.map((symbol) => symbol.text).join("");
    if (spelled === read || !CODE.test(spelled)) return word;
    respelled.push({ read, spelled });
    return { ...word, text: spelled, symbols };
  };
  return {
    blocks: blocks.map((block) => ({
      ...block,
      paragraphs: block.paragraphs.map((paragraph) => ({
        ...paragraph,
        lines: paragraph.lines.map((line) => ({ ...line, words: line.words.map(respell) })),
      })),
    })),
    respelled,
  };
}

/** A text with the respelled words spelled so. */
export function respellText(text: string, words: readonly Respelling[]): string {
  return words.reduce((spelled, { read, spelled: as }) => spelled.split(read).join(as), text);
}
