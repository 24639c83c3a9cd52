/**
 * The other characters tesseract weighed for each glyph it read: its LSTM's runner-up choices
 * (`lstm_choice_mode` 2, pool.ts), which tesseract writes only into its hOCR, as one `lstm_choices` span per
 * glyph of a word holding a `choice` span per character, best first, each titled `x_confs <0–100>`.
 * A blurred G read as 6 keeps its G there (6 at 80, G at 75), where a table of look-alikes has no reason to
 * try it; the engine asks the bank for those spellings first (engine/misread.ts).
 */
import { DomUtils, parseDocument } from "htmlparser2";

/** A character tesseract also considered for a glyph, and how far below the one it chose (0–100). */
export interface GlyphChoice {
  text: string;
  margin: number;
}

/** Per word, keyed by its box ("x0 y0 x1 y1", as the blocks output has it): each glyph's other choices. */
export type WordChoices = ReadonlyMap<string, readonly (readonly GlyphChoice[])[]>;

/** Every word's glyph choices in a page's hOCR; a choice tesseract scored 0 is no choice. */
export function wordChoicesOfHocr(hocr: string): WordChoices {
  const words = new Map<string, GlyphChoice[][]>();
  const document = parseDocument(hocr);
  for (const word of DomUtils.getElementsByTagName("span", document.children, true)) {
    if (word.attribs.class !== "ocrx_word") continue;
    const box = /bbox (\d+ \d+ \d+ \d+)/.exec(word.attribs.title ?? "")?.[1];
    if (!box) continue;
    const glyphs = spansIn(word)
      .filter((span) => span.attribs.id?.startsWith("lstm_choices_"))
      .map((span) => {
        const choices = spansIn(span).map((choice) => ({
          text: DomUtils.textContent(choice),
          confidence: Number(/x_confs ([\d.]+)/.exec(choice.attribs.title ?? "")?.[1] ?? 0),
        }));
        const best = choices[0]?.confidence ?? 0;
        return choices
          .slice(1)
          .filter((choice) => choice.confidence > 0)
          .map((choice) => ({ text: choice.text, margin: best - choice.confidence }));
      });
    if (glyphs.length > 0) words.set(box, glyphs);
  }
  return words;
}

type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

/** The spans right inside an element. */
function spansIn(element: Element): Element[] {
  return DomUtils.getElementsByTagName("span", element.children, false);
}

/** The key of a word's box in WordChoices. */
export function boxKey(bbox: { x0: number; y0: number; x1: number; y1: number }): string {
  return `${bbox.x0} ${bbox.y0} ${bbox.x1} ${bbox.y1}`;
}
