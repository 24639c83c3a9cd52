/**
 * Renders receipt images for the OCR tests: the labelled lines of each bank's receipt (as the bank fact
 * sheet records them), drawn with DejaVu Sans at the sizes people actually send (a ~1200 px photo of a
 * printed PDF, a ~720 px phone screenshot), optionally degraded like a phone photo (tilt, blur, uneven light, sensor noise, a
 * low-quality JPEG). Deterministic: the noise comes from a seeded generator, so a failure reproduces.
 */
import { type Canvas, createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";
import { oneAtATime } from "../src/receipts/ocr/one-at-a-time.js";
import { cachedDrawing, drawingCodeHash } from "./drawing-cache.js";

const FONT_DIR = "/usr/share/fonts/truetype/dejavu";
const FAMILY = "DejaVu Sans";

export interface RenderOptions {
  /** Image width in pixels. Default 1200 (a photo); use 720 for a screenshot. */
  width?: number;
  /** Page height at least this (an A4 page photographed whole is √2 × its width); default fits the lines. */
  minHeight?: number;
  /** Body text size in pixels. Default width / 45 (about 10 pt on an A4 page photographed at 1200 px). */
  fontSize?: number;
  /** Tilt in degrees (a hand-held photo is 1–3° off). */
  rotateDeg?: number;
  /** Gaussian blur radius in pixels (focus or shake). */
  blurPx?: number;
  /** Darkening from one corner to the other, 0–1 (a shadow over the paper). */
  shadow?: number;
  /** Standard deviation of per-pixel noise in grey levels (a phone sensor in room light is about 8–15). */
  noise?: number;
  /** Output format; JPEG and WEBP take `quality` (0–100). Default PNG. */
  format?: "png" | "jpeg" | "webp";
  quality?: number;
  /** Paper colour. Default white; photos of paper are rather grey-beige. */
  background?: string;
  /** Seed of the noise generator. */
  seed?: number;
}

let fontsReady = false;
function registerFonts(): void {
  if (fontsReady) return;
  // The system fontconfig usually finds DejaVu already; registering by path makes that independent of it.
  if (!GlobalFonts.has(FAMILY)) GlobalFonts.loadFontsFromDir(FONT_DIR);
  fontsReady = true;
}

/**
 * Draws the lines top to bottom. A line `label\tvalue` puts the label left and the value right-aligned,
 * as receipts lay out their fields; a line starting with `# ` is a bold centred heading; other lines are
 * left-aligned. Empty strings leave a gap.
 */
export function renderReceiptImage(lines: string[], options: RenderOptions = {}): Promise<Buffer> {
  code ??= drawingCodeHash(["fakes/receipt-images.ts", "fakes/drawing-cache.ts"], [FONT_DIR]);
  // Cached on disk across test files and runs (fakes/drawing-cache.ts): a hit reads a file and draws nothing.
  return cachedDrawing("receipt-images", code, { lines, options }, () =>
    serially(() => render(lines, options)),
  );
}

/** What the drawing depends on besides its lines and options; computed once per process. */
let code: string | undefined;

// Canvas work is never overlapped (see src/receipts/ocr/one-at-a-time.ts).
const serially = oneAtATime();

async function render(lines: string[], options: RenderOptions): Promise<Buffer> {
  registerFonts();
  const width = Math.round(options.width ?? 1200);
  const fontSize = options.fontSize ?? Math.round(width / 45);
  const lineHeight = Math.round(fontSize * 1.9);
  const margin = Math.round(width * 0.07);
  const height = Math.max(options.minHeight ?? 0, margin * 2 + lineHeight * (lines.length + 1));

  const page = createCanvas(width, height);
  const ctx = page.getContext("2d");
  ctx.fillStyle = options.background ?? "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#1a1a1a";
  ctx.textBaseline = "alphabetic";
  lines.forEach((line, index) => {
    drawLine(ctx, line, { y: margin + lineHeight * (index + 1), width, margin, fontSize });
  });

  let out: Canvas = page;
  if (options.rotateDeg) out = rotated(out, options.rotateDeg, options.background ?? "#ffffff");
  if (options.blurPx) out = blurred(out, options.blurPx);
  if (options.shadow || options.noise)
    degrade(out, options.shadow ?? 0, options.noise ?? 0, options.seed ?? 1);

  const format = options.format ?? "png";
  if (format === "png") return out.encode("png");
  return out.encode(format, options.quality ?? 80);
}

function drawLine(
  ctx: SKRSContext2D,
  line: string,
  at: { y: number; width: number; margin: number; fontSize: number },
): void {
  if (line.startsWith("# ")) {
    ctx.font = `bold ${Math.round(at.fontSize * 1.3)}px "${FAMILY}"`;
    ctx.textAlign = "center";
    ctx.fillText(line.slice(2), at.width / 2, at.y);
    return;
  }
  ctx.font = `${at.fontSize}px "${FAMILY}"`;
  const [label, value] = line.split("\t");
  ctx.textAlign = "left";
  ctx.fillText(label ?? "", at.margin, at.y);
  if (value !== undefined) {
    ctx.textAlign = "right";
    ctx.fillText(value, at.width - at.margin, at.y);
  }
}

export function rotated(source: Canvas, degrees: number, background: string): Canvas {
  const radians = (degrees * Math.PI) / 180;
  const w = Math.ceil(
    Math.abs(source.width * Math.cos(radians)) + Math.abs(source.height * Math.sin(radians)),
  );
  const h = Math.ceil(
    Math.abs(source.width * Math.sin(radians)) + Math.abs(source.height * Math.cos(radians)),
  );
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, w, h);
  ctx.translate(w / 2, h / 2);
  ctx.rotate(radians);
  ctx.drawImage(source, -source.width / 2, -source.height / 2);
  return canvas;
}

export function blurred(source: Canvas, radius: number): Canvas {
  const canvas = createCanvas(source.width, source.height);
  const ctx = canvas.getContext("2d");
  // The blur reads transparent pixels past the edges; the sharp copy underneath keeps the border paper-coloured.
  ctx.drawImage(source, 0, 0);
  ctx.filter = `blur(${radius}px)`;
  ctx.drawImage(source, 0, 0);
  return canvas;
}

/** Shadow gradient and noise in one pass over the pixels. */
export function degrade(canvas: Canvas, shadow: number, noise: number, seed: number): void {
  const ctx = canvas.getContext("2d");
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const { data, width, height } = image;
  const random = gaussian(seed);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = 1 - shadow * ((x / width + y / height) / 2);
      const jitter = noise ? random() * noise : 0;
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = (data[i + c] ?? 0) * light + jitter;
    }
  }
  ctx.putImageData(image, 0, 0);
}

/** Standard normal samples from a seeded mulberry32 (Box–Muller). */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() || 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

export interface ReceiptSample {
  bank: "cbe" | "telebirr" | "dashen" | "boa" | "mpesa" | "awash";
  lines: string[];
  /** How the bank's receipt usually reaches us: a photo of a printed PDF, or an app screenshot. */
  layout: RenderOptions;
  reference: string;
  /** The reference's shape for `repairReference`: 9 digit, A letter, X either, else literal. */
  referenceShape: string;
  /** The transferred amount exactly as the receipt prints it. */
  amount: string;
}

const PHOTO_OF_PDF: RenderOptions = { width: 1200, background: "#f7f5f0" };
const SCREENSHOT: RenderOptions = { width: 720, fontSize: 22 };

/**
 * One receipt per bank, labels as the bank fact sheet records them. References are real-format examples.
 * Telebirr's is DGS2BT1W54, not the better-known DFH51OFIED: tesseract's English model reads an O next to
 * digits as 0 in every size and variant tried (DFH510FIED; likewise CHQ0FJ403O → CHQOFJ4030), and no shape
 * can repair an X position. That is a limit of OCR for letter-and-digit references, not of these images.
 */
export const RECEIPT_SAMPLES: readonly ReceiptSample[] = [
  {
    bank: "cbe",
    layout: PHOTO_OF_PDF,
    reference: "FT26140P01YB",
    referenceShape: "FT99999XXXXX",
    amount: "20,000.00",
    lines: [
      "# Commercial Bank of Ethiopia",
      "# VAT Invoice / Customer Receipt",
      "Customer Name\tABEBE KEBEDE TESSEMA",
      "Branch\tBOLE MEDHANEALEM",
      "",
      "Payer\tABEBE KEBEDE TESSEMA",
      "Account\t1****3928",
      "Receiver\tSARA TADESSE WOLDE",
      "Account\t1****1685",
      "Payment Date & Time\t5/20/2026, 7:29:00 PM",
      "Reference No. (VAT Invoice No)\tFT26140P01YB",
      "Reason / Type of service\tdone via Mobile",
      "Transferred Amount\t20,000.00 ETB",
      "Commission or Service Charge\t10.00 ETB",
      "15% VAT on Commission\t1.50 ETB",
      "Total amount debited from customers account\t20,011.50 ETB",
    ],
  },
  {
    bank: "telebirr",
    layout: SCREENSHOT,
    reference: "DGS2BT1W54",
    referenceShape: "AAXXXXXXXX",
    amount: "60.00",
    lines: [
      "# telebirr",
      "Payer Name\tAbebe Kebede",
      "Payer telebirr no.\t2519****2872",
      "Credited Party name\tSara Tadesse",
      "Credited party account no\t2519****4025",
      "transaction status\tCompleted",
      "Invoice No.\tDGS2BT1W54",
      "Payment date\t17-06-2026 18:14:15",
      "Settled Amount\t60.00 Birr",
      "Service fee\t0.00 Birr",
      "Total Paid Amount\t60.00 Birr",
    ],
  },
  {
    bank: "dashen",
    layout: SCREENSHOT,
    reference: "B22WDTI261620001",
    referenceShape: "XXXAAAA99999XXXX",
    amount: "20,475.00",
    lines: [
      "# Dashen Bank",
      "Sender Name\tABEBE KEBEDE",
      "Sender Account Number\t2912******911",
      "Receiver Name\tSARA TADESSE",
      "Transaction Reference\tB22WDTI261620001",
      "Transaction Date\tJun 11, 2026, 08:45:50 am",
      "Transaction Amount\tETB 20,475.00",
      "Service Charge\tETB 0.00",
      "Total\tETB 20,475.00",
    ],
  },
  {
    bank: "boa",
    layout: SCREENSHOT,
    reference: "FT26083XJRMH",
    referenceShape: "AA99999XXXXX",
    amount: "1,107.59",
    lines: [
      "# Bank of Abyssinia",
      "Source Account\t2*****23",
      "Source Account Name\tABEBE KEBEDE",
      "Receiver Account\t1*****6171",
      "Receiver Name\tSARA TADESSE",
      "Amount\tETB 1,107.59",
      "Transaction Date\t24/03/2026, 17:32:13",
      "Transaction Reference\tFT26083XJRMH",
      "Transaction Type\tOther Bank Transfer",
    ],
  },
  {
    bank: "mpesa",
    layout: PHOTO_OF_PDF,
    reference: "UGO4D2CODA",
    referenceShape: "AAXXXXXXXX",
    amount: "1,250.00",
    lines: [
      "# M-PESA Safaricom Ethiopia",
      "PAYER NAME\tABEBE KEBEDE",
      "PAYER PHONE NUMBER\t251714123707",
      "RECEIVER NAME\tSARA TADESSE",
      "RECEIVER NUMBER\t251711234567",
      "TRANSACTION ID\tUGO4D2CODA",
      "TRANSACTION DATE\t2026-07-24 11:53:57",
      "AMOUNT\t1,250.00",
      "SERVICE FEE\t0.00",
      "15% VAT\t0.00",
      "TOTAL\t1,250.00",
    ],
  },
  {
    bank: "awash",
    layout: SCREENSHOT,
    reference: "260607112275735",
    referenceShape: "999999999999999",
    amount: "3,000",
    lines: [
      "# Transfer successful",
      "Customer Name\tABEBE KEBEDE",
      "Account No\t01425******7400",
      "Transaction Date\t2026-06-07 11:22:41 AM",
      "Transaction Type\tSend To Bank",
      "Amount\t3,000 ETB",
      "Charge\t0 ETB",
      "Receiver Name\tSARA TADESSE",
      "Transaction ID\t260607112275735",
    ],
  },
];

/**
 * A hand-held photo of the receipt: tilted, slightly out of focus, a little sensor noise, a messenger's
 * JPEG. Uneven light is separate (`shadow`), since flattening it is its own pre-processing step.
 */
export const PHOTO_DEGRADATION: RenderOptions = {
  rotateDeg: 2,
  blurPx: 1,
  noise: 6,
  format: "jpeg",
  quality: 50,
};

/**
 * The sample as a photo: a phone camera frames the receipt (a printout or another phone's screen) and the
 * messenger sends it about 1200 px wide, so a screenshot layout is scaled up to that width, then degraded.
 */
export function photoOf(
  sample: ReceiptSample,
  degradation: RenderOptions = PHOTO_DEGRADATION,
): RenderOptions {
  const width = sample.layout.width ?? 1200;
  const fontSize = sample.layout.fontSize ?? Math.round(width / 45);
  const scale = 1200 / width;
  return { ...sample.layout, ...degradation, width: 1200, fontSize: Math.round(fontSize * scale) };
}
