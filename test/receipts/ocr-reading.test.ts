import { describe, expect, it } from "vitest";
import type { ReceiptClaim } from "../../src/banks/receipt-claim.js";
import { isBankReference, RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { alternativeVariants, confusableVariants } from "../../src/reading/confusables.js";
import { findUrls, joinWrappedLinks } from "../../src/reading/text.js";
import {
  withConfidentReference,
  withoutDoubledGlyph,
  withoutDoubtful,
  withUnsureGlyphs,
} from "../../src/receipts/doubtful.js";
import { wordChoicesOfHocr } from "../../src/receipts/ocr/alternatives.js";
import { findPaper } from "../../src/receipts/ocr/paper.js";
import { rowsText, wordsOfTsv } from "../../src/receipts/ocr/rows.js";

/** A TSV word row as tesseract writes it: level 5, block/paragraph/line numbers, box, confidence, text. */
const word = (block: number, line: number, left: number, top: number, text: string, confidence = 95) =>
  ["5", "1", block, 1, line, 1, left, top, text.length * 12, 20, confidence, text].join("\t");

describe("OCR rows", () => {
  it("puts a label column and a value column, read one after the other, back into rows", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      word(1, 1, 20, 100, "Payer"),
      word(1, 1, 90, 101, "Name"),
      word(1, 2, 20, 140, "Amount"),
      word(2, 1, 600, 103, "ABEBE"),
      word(2, 1, 680, 102, "KEBEDE"),
      word(2, 2, 600, 138, "1,500.00"),
      word(2, 2, 700, 139, "ETB"),
    ].join("\n");
    expect(rowsText(wordsOfTsv(tsv))).toBe("Payer Name\tABEBE KEBEDE\nAmount\t1,500.00 ETB");
  });

  it("keeps lines apart that only touch", () => {
    const tsv = [word(1, 1, 20, 100, "first"), word(2, 1, 400, 112, "second")].join("\n");
    expect(rowsText(wordsOfTsv(tsv))).toBe("first\nsecond");
  });
});

describe("look-alikes OCR puts into codes", () => {
  it("reads a ')' inside or ending a code as J, never a name's closing bracket", () => {
    const line = (n: number, text: string) => word(n, 1, 20, 100 * n, text);
    const tsv = ["FT26083X)RMH", "851ULKI2601300R)", "DEMISSIE)", "(REF 851ULKI2601300R)"].map((t, i) =>
      line(i + 1, t),
    );
    expect(rowsText(wordsOfTsv(tsv.join("\n"))).split("\n")).toEqual([
      "FT26083XJRMH",
      "851ULKI2601300RJ",
      "DEMISSIE)",
      "(REF 851ULKI2601300R)",
    ]);
  });

  it("drops the small twin OCR read before a capital of a code, never a letter of a mixed-case token", () => {
    const line = (n: number, text: string) => word(n, 1, 20, 100 * n, text);
    const tsv = ["FT26224cC89JI", "v2-RtcC5YwQ2kPz8NvLm3Xc", "Amount"].map((t, i) => line(i + 1, t));
    expect(rowsText(wordsOfTsv(tsv.join("\n"))).split("\n")).toEqual([
      "FT26224C89JI",
      "v2-RtcC5YwQ2kPz8NvLm3Xc",
      "Amount",
    ]);
  });
});

describe("links an SMS bubble wrapped", () => {
  it("joins the link's pieces and stops at the message's time under it", () => {
    const sms =
      "Thanks for Banking with CBE. https://\nmbreciept.cbe.com.et/v2-\nD8J46Se33TyPvsWFepvy\n9:57 PM - SMS";
    expect(findUrls(sms)[0]).toBe("https://mbreciept.cbe.com.et/v2-D8J46Se33TyPvsWFepvy");
  });

  it("joins across a mark OCR read from an icon at the bubble's edge", () => {
    const sms = "Receipt: https://share.\nzemenbank.com/rt/\n16472800610U0Z02611100\n@ Z4/pdf Zemen Bank";
    expect(findUrls(sms)[0]).toBe("https://share.zemenbank.com/rt/16472800610U0Z02611100Z4/pdf");
  });

  it("joins a token's last piece even when it looks like a word, but not a word after a finished link", () => {
    expect(findUrls("https://mbreciept.cbe.com.et/v2-bUzL9H8DhFcRPfHEiy\nEl for feedback")[0]).toBe(
      "https://mbreciept.cbe.com.et/v2-bUzL9H8DhFcRPfHEiyEl",
    );
    expect(joinWrappedLinks("https://x.et/receipt/ABC123\nThank you")).toBe(
      "https://x.et/receipt/ABC123\nThank you",
    );
  });
});

describe("doubtful OCR values", () => {
  const claim: ReceiptClaim = {
    bank: "telebirr",
    transactionNumber: "DET8FJGUJ4",
    accountNumber: null,
    shareUrl: null,
    receipt: { amount: 1500, payerName: "Abebe Kebede", receiverName: "Sara Tadesse", currency: "ETB" },
  };

  it("drops the amount and the names OCR was unsure of, and nothing else", () => {
    const text = "Settled Amount 1,500.00 Birr";
    expect(withoutDoubtful(claim, ["ETB1,500.00", "Kebede"], text).receipt).toEqual({
      receiverName: "Sara Tadesse",
      currency: "ETB",
    });
    expect(withoutDoubtful(claim, ["1500"], text).receipt.amount).toBeUndefined();
    expect(withoutDoubtful(claim, ["15.00", "Birr"], text).receipt).toEqual(claim.receipt);
    expect(withoutDoubtful(claim, [], text)).toBe(claim);
  });

  it("keeps an unsure amount that the page's fees and total add up to, and only then", () => {
    const page = [
      "Settled Amount\t1,500.00 Birr",
      "Service fee\t8.70 Birr",
      "Service fee VAT\t1,30 Birr",
      "Discount Amount\t0.50 Birr",
      "Total Paid Amount\t1,509.50 Birr",
    ].join("\n");
    expect(withoutDoubtful(claim, ["1,500.00"], page).receipt.amount).toBe(1500);
    // Misread as 1,600.00 (or any other figure), it no longer adds up and is dropped.
    const misread = { ...claim, receipt: { ...claim.receipt, amount: 1600 } };
    expect(
      withoutDoubtful(misread, ["1,600.00"], page.replace("1,500.00", "1,600.00")).receipt.amount,
    ).toBeUndefined();
    // A total alone, with no fee line, vouches for nothing.
    expect(
      withoutDoubtful(claim, ["1,500.00"], "Amount 1,500.00\nTotal 1,500.00").receipt.amount,
    ).toBeUndefined();
  });

  it("takes the reference from the word OCR was sure of when the text prints it twice", () => {
    const sms =
      "Your transaction number is DEFWY45ISO. … click this link: https://transactioninfo.\nethiotelecom.et/receipt/\nDEFWY451SO\nThank you for using telebirr";
    const read = RECEIPT_PARSERS.telebirr.parse(sms);
    expect(read).toMatchObject({ transactionNumber: "DEFWY451SO" });
    const reread = (word: string) => RECEIPT_PARSERS.telebirr.parse(word)?.transactionNumber ?? null;
    const confident = withConfidentReference(read as ReceiptClaim, sms, ["DEFWY451SO"], reread);
    expect(confident).toMatchObject({
      transactionNumber: "DEFWY45ISO",
      shareUrl: "https://transactioninfo.ethiotelecom.et/receipt/DEFWY45ISO",
    });
    // Sure of the link, or doubting both: the reading stays.
    expect(withConfidentReference(read as ReceiptClaim, sms, ["DEFWY45ISO."], reread)).toBe(read);
    expect(withConfidentReference(read as ReceiptClaim, sms, ["DEFWY451SO", "DEFWY45ISO."], reread)).toBe(
      read,
    );
  });
});

describe("a glyph OCR read twice", () => {
  const dashen = (transactionNumber: string): ReceiptClaim => ({
    bank: "dashen",
    transactionNumber,
    accountNumber: null,
    shareUrl: null,
    receipt: {},
  });
  const reread = (word: string) => RECEIPT_PARSERS.dashen.parse(word)?.transactionNumber ?? null;
  const accepts = (reference: string) => isBankReference("dashen", reference);

  it("is dropped when exactly one reference of the bank's shape comes out", () => {
    // 17 characters: the type's O read as "O0"; either one dropped reads G11OBTS… by the shape.
    expect(withoutDoubledGlyph(dashen("G11O0BTS26043004U"), reread, accepts).transactionNumber).toBe(
      "G11OBTS26043004U",
    );
  });

  it("leaves a reference the bank accepts, and one that no single drop repairs", () => {
    const fine = dashen("G11OBTS26043004U");
    expect(withoutDoubledGlyph(fine, reread, accepts)).toBe(fine);
    const unrelated = dashen("G11OXBTS26043004U");
    expect(withoutDoubledGlyph(unrelated, reread, accepts)).toBe(unrelated);
  });

  it("is not guessed when two drops give two different references", () => {
    // "S5" at the end: dropping either leaves a valid but different last character.
    const two = dashen("G11OBTS2604300S5U");
    expect(withoutDoubledGlyph(two, reread, accepts)).toBe(two);
  });
});

describe("confusable variants", () => {
  it("tries a letter among digits as a digit first", () => {
    expect(confusableVariants("FT2614OP01YB", 1)).toEqual(["FT26140P01YB"]);
  });

  it("gives at most the limit, never the reference itself", () => {
    const variants = confusableVariants("DETBFJGUJ4", 2);
    expect(variants).toHaveLength(2);
    expect(variants).toContain("DET8FJGUJ4");
    expect(variants).not.toContain("DETBFJGUJ4");
    expect(confusableVariants("XYZ", 4)).toEqual(["XY2"]);
  });

  it("tries the glyphs OCR was unsure of first, a blurred S as an 8 there only", () => {
    // M-Pesa's RXWKE8R1I0 photographed: the 8 read as S, the one glyph read under 93.
    expect(confusableVariants("RXWKESR1I0", 4, [5])).toEqual([
      "RXWKE5R1I0",
      "RXWKE8R1I0",
      "RXWKESR110",
      "RXWKESRII0",
    ]);
    expect(confusableVariants("RXWKESR1I0", 12)).not.toContain("RXWKE8R1I0");
    // A CBE page photographed small: the 6 of FT26100T6WLT read as O (at 90), its bowl closed by blur.
    expect(confusableVariants("FT26100TOWLT", 4, [8])).toContain("FT26100T6WLT");
    expect(confusableVariants("FT26100TOWLT", 12)).not.toContain("FT26100T6WLT");
  });

  it("tries a small o for a 0 only in a case-sensitive token", () => {
    // The 0 (position 5) marked unsure: its variants come first, the small o among them.
    expect(confusableVariants("v2-F8042DIGap2nsMSdGLIE", 4, [5])).toContain("v2-F8o42DIGap2nsMSdGLIE");
    expect(confusableVariants("FT2610O0XWLT", 40).some((variant) => /[a-z]/.test(variant))).toBe(false);
  });

  it("tries a thin letter read from a mark as the other thin letters, where it was unsure only", () => {
    // v2-]64B… read as v2-J64B… by its foot's shape (ocr/thin-letters.ts), at confidence 0.
    const token = "v2-J64B3dYDg6RI9kpdLL57";
    expect(confusableVariants(token, 4, [3])).toEqual(
      expect.arrayContaining(["v2-l64B3dYDg6RI9kpdLL57", "v2-I64B3dYDg6RI9kpdLL57"]),
    );
    expect(confusableVariants("v2-l64B3dYDg6RI9kpdLL57", 4, [3])).toContain(token);
    expect(confusableVariants(token, 40)).not.toContain("v2-l64B3dYDg6RI9kpdLL57");
  });
});

describe("glyphs OCR was unsure of", () => {
  const mpesa: ReceiptClaim = {
    bank: "mpesa",
    transactionNumber: "RXWKESR1I0",
    accountNumber: null,
    shareUrl: null,
    receipt: {},
  };
  const sure = [99, 99, 98, 99, 97, 99, 99, 97, 98, 99];

  it("are marked at their positions in the reference, wherever the code holds it", () => {
    const unsure = sure.with(5, 91);
    expect(
      withUnsureGlyphs(mpesa, [{ read: "RXWKESR1IO", confidences: unsure, choices: [] }]).unsure,
    ).toEqual([5]);
    // Inside a link's path; spelled with a look-alike the glyph widths repaired since.
    const link = {
      read: "receipt/RXWKESR1IO",
      confidences: [...Array<number>(8).fill(99), ...unsure],
      choices: [],
    };
    expect(withUnsureGlyphs(mpesa, [link]).unsure).toEqual([5]);
  });

  it("leave a reference read surely, or not found among the codes, as it was", () => {
    expect(withUnsureGlyphs(mpesa, [{ read: "RXWKESR1I0", confidences: sure, choices: [] }])).toBe(mpesa);
    expect(
      withUnsureGlyphs(mpesa, [{ read: "YD6X4W70ZMYV", confidences: sure.map(() => 50), choices: [] }]),
    ).toBe(mpesa);
  });
});

describe("the other characters OCR weighed", () => {
  /** A word of tesseract's hOCR with lstm_choice_mode 2, as it writes one: a choice span per character. */
  const hocrWord = (box: string, text: string, glyphs: readonly (readonly [string, number])[][]) =>
    `<span class='ocrx_word' id='word_1_1' title='bbox ${box}; x_wconf 32'>${text}\n${glyphs
      .map(
        (choices, g) =>
          `<span class='ocrx_cinfo' id='lstm_choices_1_1_${g + 1}'>${choices
            .map(
              ([c, conf], n) =>
                `<span class='ocrx_cinfo' id='choice_1_1_${n}' title='x_confs ${conf}'>${c}</span>`,
            )
            .join("")}</span>`,
      )
      .join("")}</span>`;

  it("are read from the hOCR per glyph, with how far below the chosen one, and none scored 0", () => {
    const hocr = `<div class='ocr_page'><span class='ocr_line'>${hocrWord("567 928 601 946", "B6", [
      [
        ["B", 80],
        ["8", 76],
        ["6", 0],
      ],
      [
        ["6", 80.5],
        ["G", 75],
        ["&amp;", 12],
      ],
    ])} ${hocrWord("610 928 650 946", "x", [[["x", 99]]])}</span></div>`;
    const words = wordChoicesOfHocr(hocr);
    expect(words.get("567 928 601 946")).toEqual([
      [{ text: "8", margin: 4 }],
      [
        { text: "G", margin: 5.5 },
        { text: "&", margin: 68.5 },
      ],
    ]);
    expect(words.get("610 928 650 946")).toEqual([[]]);
  });

  it("are placed at their positions in the reference, a token's part after its dash too", () => {
    const token = "v2-fxFWoCUImLEnN4DO0rtc";
    const claim: ReceiptClaim = {
      bank: "cbe",
      transactionNumber: token,
      accountNumber: null,
      shareUrl: null,
      receipt: {},
    };
    // Tesseract read the part after "v2-" as a word apart; it weighed a 0 for the O at 15 of that word.
    const read = token.slice(3);
    const choices = Array.from(read, (_, at) => (at === 15 ? [{ text: "0", margin: 20 }] : []));
    const code = { read, confidences: Array.from(read, () => 99), choices };
    expect(withUnsureGlyphs(claim, [code]).alternatives).toEqual([{ at: 18, text: "0", margin: 20 }]);
    // A word that is only some other part of it is not the token.
    const fragment = { read: read.slice(0, 12), confidences: [], choices: choices.slice(0, 12) };
    expect(withUnsureGlyphs(claim, [fragment])).toBe(claim);
  });

  it("give spellings with one or two of them swapped in, closest to OCR's choice first", () => {
    const alternatives = [
      { at: 7, text: "8", margin: 4 },
      { at: 11, text: "G", margin: 5 },
      { at: 0, text: "£", margin: 23 },
      { at: 2, text: "Z", margin: 32 },
    ];
    expect(alternativeVariants("FT26077B2C16", alternatives, 4)).toEqual([
      "FT2607782C16",
      "FT26077B2C1G",
      "FT2607782C1G",
      "FTZ6077B2C16",
    ]);
  });
});

describe("the page in a photo", () => {
  /** A grey image: `fill(x, y)` gives each pixel's level. */
  const image = (width: number, height: number, fill: (x: number, y: number) => number) => {
    const grey = new Uint8ClampedArray(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grey[y * width + x] = fill(x, y);
    return grey;
  };
  // Text lines on white paper, and a striped table top around it.
  const paper = (x: number, y: number) => (y % 24 < 3 && x % 9 < 6 ? 40 : 235);
  const table = (_x: number, y: number) => (Math.floor(y / 6) % 2 ? 150 : 60);

  it("finds a page lying inside the frame", () => {
    const grey = image(960, 1280, (x, y) =>
      x >= 300 && x < 700 && y >= 200 && y < 1000 ? paper(x, y) : table(x, y),
    );
    const region = findPaper(grey, 960, 1280);
    expect(region).not.toBeNull();
    const { left = 0, top = 0, width = 0, height = 0 } = region ?? {};
    expect(left).toBeLessThanOrEqual(300);
    expect(left).toBeGreaterThanOrEqual(250);
    expect(top).toBeLessThanOrEqual(200);
    expect(left + width).toBeGreaterThanOrEqual(700);
    expect(top + height).toBeGreaterThanOrEqual(1000);
    expect(width * height).toBeLessThan(0.5 * 960 * 1280);
  });

  it("leaves a screenshot whole: its light body spans the width between dark bars", () => {
    const grey = image(590, 1280, (x, y) => (y < 300 || y >= 900 ? 30 : paper(x, y)));
    expect(findPaper(grey, 590, 1280)).toBeNull();
  });

  it("leaves a page that fills the frame whole", () => {
    expect(findPaper(image(960, 1280, paper), 960, 1280)).toBeNull();
  });
});
