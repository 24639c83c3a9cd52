// A fixed creation date also fixes the trailer /ID (pdfkit derives it from the info dictionary),
// so the same drawing always yields the same bytes.
const FIXED_DATE = new Date("2026-01-01T00:00:00Z");

/**
 * Renders one PDF with pdfkit (Helvetica, A4, one page to start) and resolves with its bytes. pdfkit is
 * loaded on the first PDF: the service carries the simulator for sandbox keys, most never ask for a PDF.
 */
export async function renderPdf(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
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
