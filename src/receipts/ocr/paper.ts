/**
 * Where the paper is in a photo of a receipt. A hand-held photo shows the page on a table or a hand, often
 * less than half the frame: read whole, the background's texture becomes noise lines and the page's text is
 * small. Cropped to the page, the text can be enlarged and the background is gone.
 */

/** A region of the image, in pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

const BLOCK = 16;

/**
 * The bounding box of the largest bright region that is clearly brighter than what surrounds it, or null
 * when the image is all page (a screenshot, a scan) or no page stands out (a dark-mode screenshot).
 */
export function findPaper(grey: Uint8ClampedArray, width: number, height: number): Region | null {
  const cols = Math.floor(width / BLOCK);
  const rows = Math.floor(height / BLOCK);
  if (cols < 8 || rows < 8) return null;
  const means = blockMeans(grey, width, cols, rows);
  const threshold = otsu(means);
  const bright = means.map((mean) => (mean > threshold ? 1 : 0));
  const component = largestComponent(bright, cols, rows);
  if (!component) return null;
  const { blocks, left, top, right, bottom } = component;
  const boxArea = (right - left + 1) * (bottom - top + 1);
  const share = boxArea / (cols * rows);
  // A page filling the frame needs no crop, unless a border shows on every side: a small photo of a whole
  // page, whose text only the crop's enlargement makes readable. A tiny bright patch is a reflection.
  const inset = left > 0 && top > 0 && right < cols - 1 && bottom < rows - 1;
  if ((share > 0.8 && !inset) || share < 0.12 || blocks.size < 0.5 * boxArea) return null;
  // A page lying in the frame is inset; a screenshot's body under its app bar spans the width.
  if (left === 0 && right === cols - 1) return null;
  if (top === 0 && bottom === rows - 1) return null;
  let inside = 0;
  let outside = 0;
  means.forEach((mean, k) => {
    if (blocks.has(k)) inside += mean;
    else outside += mean;
  });
  const contrast = inside / blocks.size - outside / Math.max(1, means.length - blocks.size);
  if (contrast < 40) return null;
  const margin = 2;
  const x0 = Math.max(0, (left - margin) * BLOCK);
  const y0 = Math.max(0, (top - margin) * BLOCK);
  const x1 = Math.min(width, (right + 1 + margin) * BLOCK);
  const y1 = Math.min(height, (bottom + 1 + margin) * BLOCK);
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

// --- internal helpers ---

function blockMeans(grey: Uint8ClampedArray, width: number, cols: number, rows: number): number[] {
  const means: number[] = [];
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      let sum = 0;
      for (let y = by * BLOCK; y < (by + 1) * BLOCK; y++) {
        for (let x = bx * BLOCK; x < (bx + 1) * BLOCK; x++) sum += grey[y * width + x] ?? 0;
      }
      means.push(sum / (BLOCK * BLOCK));
    }
  }
  return means;
}

/** Otsu's threshold over values 0–255: the split that best separates two groups. */
function otsu(values: readonly number[]): number {
  const histogram = new Array<number>(256).fill(0);
  for (const value of values) {
    const level = Math.min(255, Math.round(value));
    histogram[level] = (histogram[level] ?? 0) + 1;
  }
  const total = values.length;
  let sum = 0;
  histogram.forEach((count, level) => {
    sum += count * level;
  });
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let threshold = 128;
  for (let level = 0; level < 256; level++) {
    below += histogram[level] ?? 0;
    if (below === 0 || below === total) continue;
    belowSum += level * (histogram[level] ?? 0);
    const meanBelow = belowSum / below;
    const meanAbove = (sum - belowSum) / (total - below);
    const between = below * (total - below) * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}

/** The largest 4-connected set of 1-blocks, with its bounding box in blocks. */
function largestComponent(cells: readonly number[], cols: number, rows: number) {
  const seen = new Uint8Array(cells.length);
  let best: { blocks: Set<number>; left: number; top: number; right: number; bottom: number } | null = null;
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || seen[start]) continue;
    const blocks = new Set<number>();
    const stack = [start];
    seen[start] = 1;
    let [left, top, right, bottom] = [cols, rows, 0, 0];
    while (stack.length > 0) {
      const k = stack.pop() as number;
      blocks.add(k);
      const x = k % cols;
      const y = Math.floor(k / cols);
      [left, top, right, bottom] = [
        Math.min(left, x),
        Math.min(top, y),
        Math.max(right, x),
        Math.max(bottom, y),
      ];
      const neighbours = [x > 0 ? k - 1 : -1, x < cols - 1 ? k + 1 : -1, y > 0 ? k - cols : -1, k + cols];
      for (const n of neighbours) {
        if (n >= 0 && n < cells.length && cells[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    if (!best || blocks.size > best.blocks.size) best = { blocks, left, top, right, bottom };
  }
  return best;
}
