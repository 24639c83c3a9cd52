import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LABELS, type Label, startsWithLabel } from "../../src/banks/cbe/labels.js";
import { readCbePdfText } from "../../src/banks/cbe/parse.js";
import { cbeReceiptParser } from "../../src/banks/cbe/receipt.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/banks/cbe/${name}`, import.meta.url), "utf8");

/** Every spelling the adapter (parse.ts) or the copy reader (receipt.ts) accepted before labels.ts. */
const SPELLINGS: Record<Label, readonly string[]> = {
  title: ["VAT Invoice / Customer Receipt", "VAT Invoice/Customer Receipt"],
  section: ["Payment / Transaction Information", "Payment/Transaction Information"],
  customer: ["Customer Name", "CustomerName"],
  region: ["Region"],
  city: ["City"],
  subcity: ["Sub city", "Subcity"],
  wereda: ["Wereda/Kebele", "Wereda / Kebele", "Wereda Kebele"],
  branch: ["Branch"],
  swift: ["SWIFT Code"],
  tin: ["Tin"],
  vatReceipt: ["VAT Receipt No", "VAT Receipt No."],
  vatRegistration: ["VAT Registration No", "VAT Registration Date"],
  payer: ["Payer"],
  account: ["Account"],
  receiver: ["Receiver"],
  date: ["Payment Date & Time", "Payment Date and Time", "Payment Date&Time"],
  reference: [
    "Reference No. (VAT Invoice No)",
    "Reference No (VAT Invoice No.)",
    "Reference No. ( VAT Invoice No )",
    "Reference No VAT Invoice No",
  ],
  reason: ["Reason / Type of service", "Reason/Type of service", "Reason Type of service"],
  amount: ["Transferred Amount"],
  commission: ["Commission or Service Charge"],
  vat: ["15% VAT on Commission", "15 % VAT on Commission"],
  disaster: ["5% Disaster Recovery", "5 % Disaster Recovery"],
  total: [
    "Total amount debited from customer's account",
    "Total amount debited from customers account",
    "Total amount debited from customer account",
    "Total amount debited",
  ],
  words: ["Amount in Word", "Amount in Words"],
};

describe("CBE receipt labels (banks.md §2.1)", () => {
  it.each(Object.keys(LABELS) as Label[])("%s starts a line in every spelling, spaced or glued", (label) => {
    for (const spelling of SPELLINGS[label]) {
      expect(startsWithLabel(label).test(`${spelling} 1`), spelling).toBe(true);
      expect(startsWithLabel(label).test(`${spelling.toUpperCase()}1`), spelling).toBe(true);
    }
  });

  it("the adapter reads the spellings only copies were read in before", () => {
    const printed = fixture("legacy-glued.txt");
    const respelled = printed
      .replace("Payment Date & Time", "Payment Date and Time")
      .replace("Reason / Type of service", "Reason Type of service")
      .replace("Reference No. (VAT Invoice No)", "Reference No (VAT Invoice No.)")
      .replace("Wereda/Kebele", "Wereda Kebele");
    expect(respelled).not.toBe(printed);
    expect(readCbePdfText(respelled)).toEqual(readCbePdfText(printed));
  });

  it("the copy reader reads a name glued to its label, as the adapter does", () => {
    const text = "Commercial Bank of Ethiopia\nPAYERJOHN DOE\nRECEIVERABEBE KEBEDE";
    expect(cbeReceiptParser.parse(text).receipt).toMatchObject({
      payerName: "JOHN DOE",
      receiverName: "ABEBE KEBEDE",
    });
  });
});
