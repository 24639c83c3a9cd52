// A fixed creation date also fixes the trailer /ID (pdfkit derives it from the info dictionary),
// so the same drawing always yields the same bytes.
const FIXED_DATE = new Date("2026-01-01T00:00:00Z");

const importPdfKit = () => import("pdfkit");
let pdfkit: ReturnType<typeof importPdfKit> | undefined;

/**
 * pdfkit, loaded when a simulator starts rather than when the service does: the service carries the
 * simulator for sandbox keys and starts it on the first sandbox lookup. A simulator loads it before it
 * serves, so no bank's first answer waits for it (tests time answers to the tenth of a second).
 */
export function loadPdfKit(): ReturnType<typeof importPdfKit> {
  pdfkit ??= importPdfKit();
  return pdfkit;
}

/** Renders one PDF with pdfkit (Helvetica, A4, one page to start) and resolves with its bytes. */
export async function renderPdf(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { default: PDFDocument } = await loadPdfKit();
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 40,
      info: { Producer: "Birrcheck simulator", Creator: "Birrcheck simulator", CreationDate: FIXED_DATE },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    try {
      doc.font("Helvetica");
      draw(doc);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
