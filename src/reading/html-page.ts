/**
 * A bank's HTML page as its readers see it, through htmlparser2: its text, lines and table cells, entities
 * decoded and comments, scripts and styles left out, whatever the case of its tags or their attributes.
 */

import { DomUtils, ElementType, parseDocument } from "htmlparser2";

type HtmlDocument = ReturnType<typeof parseDocument>;
type HtmlNode = HtmlDocument["children"][number];
export type HtmlElement = ReturnType<typeof DomUtils.getElementsByTagName>[number];

export interface HtmlPage {
  /** The lines a reader sees (see `linesOf`), blank ones dropped, spaces collapsed. */
  lines(): string[];
  /** The lines on one line, joined by spaces. */
  text(): string;
  /** Every table row of the page, in page order, as its cells' text (see `tableRows`). */
  rows(): string[][];
  /** The elements of that (lower-case) name, or all, in page order. */
  elements(name?: string): HtmlElement[];
}

export function htmlPage(html: string): HtmlPage {
  const document = parseDocument(html);
  return {
    lines: () => linesOf(document.children),
    text: () => textOf(document.children),
    rows: () => tableRows(document),
    elements: (name) => DomUtils.getElementsByTagName(name ?? (() => true), document.children, true),
  };
}

/** An element's text on one line. */
export function htmlText(element: HtmlElement): string {
  return textOf(element.children);
}

/** The text after `element` up to its next sibling that `stop` names, or its parent's end: the rest of its line. */
export function textAfter(element: HtmlElement, stop: ReadonlySet<string>): string {
  const rest: HtmlNode[] = [];
  for (
    let node = element.next;
    node && !(node.type === ElementType.Tag && stop.has(node.name));
    node = node.next
  ) {
    rest.push(node);
  }
  return textOf(rest);
}

/** The next element among `element`'s siblings, text between them skipped. */
export function nextElement(element: HtmlElement): HtmlElement | null {
  return DomUtils.nextElementSibling(element);
}

/**
 * The rows within `root` (a nested table's too), each as its cells' text. A cell's text leaves out a table
 * or cell nested in it: those are rows and cells of their own. htmlparser2 nests a `<th>` that follows an
 * unclosed `<td>` in it, and keeps cells written without a `<tr>` where they are; browsers make them
 * sibling cells and a row, and so does this.
 */
export function tableRows(root: HtmlDocument | HtmlElement, rows: string[][] = []): string[][] {
  for (const node of root.children) {
    if (node.type !== ElementType.Tag) continue;
    if (!isCell(node)) {
      const cells = cellsOf(node);
      if (cells.length > 0) rows.push(cells);
    }
    tableRows(node, rows);
  }
  return rows;
}

function cellsOf(parent: HtmlElement, cells: string[] = []): string[] {
  for (const child of parent.children) {
    if (child.type !== ElementType.Tag || !isCell(child)) continue;
    cells.push(textOf(child.children, true));
    cellsOf(child, cells);
  }
  return cells;
}

const isCell = (element: HtmlElement) => element.name === "td" || element.name === "th";

// Blocks and cells start and end a line. The inline labels end one ("<strong>Amount:</strong> 100"
// reads as a label line above its value, as receipts lay them out), but do not start one.
const BLOCKS = new Set([
  ..."head title body p div h1 h2 h3 h4 h5 h6 li dt dd form section article header footer".split(" "),
  ..."table caption thead tbody tfoot tr td th".split(" "),
]);
const LINE_ENDS = new Set(["span", "strong", "b", "label"]);

/**
 * Lines as htmlparser2's text nodes hold them, broken at <br>, blocks and cells; a newline in the text
 * breaks one too, as pasted receipts and pages written one field to a source line need.
 */
function linesOf(nodes: readonly HtmlNode[]): string[] {
  return rawText(nodes, false)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

/** The lines joined by spaces, without making them. */
function textOf(nodes: readonly HtmlNode[], cellsApart = false): string {
  return rawText(nodes, cellsApart).replace(/\s+/g, " ").trim();
}

function rawText(nodes: readonly HtmlNode[], cellsApart: boolean): string {
  const parts: string[] = [];
  for (const node of nodes) writeText(node, parts, cellsApart);
  return parts.join("");
}

function writeText(node: HtmlNode, parts: string[], cellsApart: boolean): void {
  if (node.type === ElementType.Text) {
    parts.push(node.data);
    return;
  }
  // Comments, scripts, styles and doctypes are nodes of their own types.
  if (node.type !== ElementType.Tag) return;
  const block = BLOCKS.has(node.name);
  if (block || node.name === "br") parts.push("\n");
  if (!(cellsApart && (node.name === "table" || isCell(node)))) {
    for (const child of node.children) writeText(child, parts, cellsApart);
  }
  if (block || LINE_ENDS.has(node.name)) parts.push("\n");
}
