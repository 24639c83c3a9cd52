/** A greyscale image, one byte per pixel, row by row (0 black, 255 white). */
export interface GreyImage {
  grey: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** Grey levels at points of the page tesseract read, in the coordinates of its boxes. */
export type PagePixels = (x: number, y: number) => number;

/**
 * The image tesseract read, in its boxes' coordinates. With rotateAuto it reads a copy turned by
 * `rotateRadians` about the centre, the size kept, white brought in (leptonica's pixRotate); sampling the
 * prepared image through the same turn reproduces that copy to within half a grey level on the photo set,
 * without asking the worker for it (an image out of the worker cost 60–130 ms per receipt).
 */
export function straightened(page: GreyImage, rotateRadians: number): PagePixels {
  const { grey, width, height } = page;
  const cos = Math.cos(rotateRadians);
  const sin = Math.sin(rotateRadians);
  const cx = width / 2;
  const cy = height / 2;
  const at = (x: number, y: number) =>
    x < 0 || y < 0 || x >= width || y >= height ? 255 : (grey[y * width + x] ?? 255);
  return (x, y) => {
    const dx = x - cx;
    const dy = y - cy;
    const sx = cx + dx * cos + dy * sin;
    const sy = cy - dx * sin + dy * cos;
    const x0 = Math.floor(sx);
    const y0 = Math.floor(sy);
    const fx = sx - x0;
    const fy = sy - y0;
    return (
      at(x0, y0) * (1 - fx) * (1 - fy) +
      at(x0 + 1, y0) * fx * (1 - fy) +
      at(x0, y0 + 1) * (1 - fx) * fy +
      at(x0 + 1, y0 + 1) * fx * fy
    );
  };
}
