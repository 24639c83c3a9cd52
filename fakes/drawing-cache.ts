/**
 * Drawn test images kept on disk, so a run draws each image once and the next run not at all. An entry is
 * keyed by a hash of what is drawn (the inputs) and of everything the drawing depends on: the drawing code's
 * files, @napi-rs/canvas's version, the fonts and the platform. The drawing is deterministic, so a hit is
 * byte for byte what drawing would give; change any of those and the key changes. Entries are written to a
 * temporary file and renamed, so test files drawing the same image at once never read half of one.
 *
 * BIRRCHECK_TEST_CACHE: another folder; "off" draws every time. Safe to delete at any time.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SETTING = process.env.BIRRCHECK_TEST_CACHE;
const FOLDER =
  SETTING === "off" ? null : path.resolve(SETTING || path.join(ROOT, "node_modules/.cache/birrcheck-test"));

/**
 * A hash of the files (paths relative to the repository; folders taken whole), @napi-rs/canvas's version,
 * the font files in `fontDirs` and the platform: what a drawing's bytes depend on besides its inputs.
 */
export function drawingCodeHash(files: readonly string[], fontDirs: readonly string[]): string {
  const hash = createHash("sha256");
  const add = (file: string) => {
    hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  };
  for (const entry of files) {
    const full = path.join(ROOT, entry);
    if (statSync(full).isDirectory()) for (const file of filesUnder(full)) add(file);
    else add(full);
  }
  const canvas = JSON.parse(
    readFileSync(path.join(ROOT, "node_modules/@napi-rs/canvas/package.json"), "utf8"),
  );
  hash.update(`canvas ${canvas.version}\0${process.platform} ${process.arch}\0`);
  for (const dir of fontDirs) {
    for (const file of filesUnder(dir)) {
      const { size, mtimeMs } = statSync(file);
      hash.update(`${file} ${size} ${mtimeMs}\0`);
    }
  }
  return hash.digest("hex");
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The bytes `draw` gives for `inputs` (any JSON), from the cache when this code has drawn them before.
 * `namespace` names the kind of drawing (its folder); `code` is its drawingCodeHash.
 */
export async function cachedDrawing(
  namespace: string,
  code: string,
  inputs: unknown,
  draw: () => Promise<Buffer>,
): Promise<Buffer> {
  if (!FOLDER) return draw();
  const key = createHash("sha256").update(code).update(JSON.stringify(inputs)).digest("hex");
  const file = path.join(FOLDER, namespace, `${key.slice(0, 2)}`, `${key}.bin`);
  const hit = await readFile(file).catch(() => null);
  if (hit) return hit;
  const bytes = await draw();
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch {
    // A read-only or full disk only costs the next run a drawing.
    await rm(temporary, { force: true });
  }
  return bytes;
}

/** Several images as one entry: a count, then each image's width, height and length before its bytes. */
export function packImages(images: readonly { width: number; height: number; image: Buffer }[]): Buffer {
  const parts: Buffer[] = [u32(images.length)];
  for (const { width, height, image } of images)
    parts.push(u32(width), u32(height), u32(image.length), image);
  return Buffer.concat(parts);
}

export function unpackImages(packed: Buffer): { width: number; height: number; image: Buffer }[] {
  const images: { width: number; height: number; image: Buffer }[] = [];
  let at = 4;
  for (let i = packed.readUInt32BE(0); i > 0; i--) {
    const width = packed.readUInt32BE(at);
    const height = packed.readUInt32BE(at + 4);
    const length = packed.readUInt32BE(at + 8);
    at += 12;
    images.push({ width, height, image: packed.subarray(at, at + length) });
    at += length;
  }
  return images;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}
