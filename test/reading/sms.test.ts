import { describe, expect, it } from "vitest";
import { readSms } from "../../src/reading/sms.js";
import { joinWrappedLinks } from "../../src/reading/text.js";

// The SMS grammar (src/reading/sms.ts): direction verbs, counterparty phrases and labels, the amount with its
// currency on either side. Sentences written here from the grammar, not taken from any corpus.

describe("the SMS grammar", () => {
  it("reads the noun form: a transfer to NAME of an amount, and the debited account by its label", () => {
    expect(
      readSms(
        "Transfer to Almaz Bekele of ETB 1,250.00 was successful on 2026-05-02 09:15:00. Debited account: 1000****1234.",
      ),
    ).toMatchObject({
      amount: 1250,
      receiverName: "Almaz Bekele",
      payerAccount: "1000****1234",
      transactionDate: "2026-05-02T09:15:00+03:00",
    });
  });

  it("reads the other side after 'in favour of'", () => {
    expect(
      readSms("ETB 300 paid from your account 0142****7400 in favour of KIDUS TRADING PLC on 2026-04-11."),
    ).toMatchObject({ amount: 300, receiverName: "KIDUS TRADING PLC", payerAccount: "0142****7400" });
  });

  it("reads a withdrawal and its beneficiary by label, in another sentence", () => {
    expect(
      readSms(
        "450.00 Birr has been withdrawn from your account 1234****5678. Beneficiary: Selam Haile. Date: 2026-03-09",
      ),
    ).toMatchObject({ amount: 450, receiverName: "Selam Haile", payerAccount: "1234****5678" });
  });

  it("takes a third party who transferred to your account as the payer, and 'Dear NAME' as the receiver", () => {
    expect(
      readSms(
        "Dear HANA CAFE, Dawit Alemu has transferred ETB 2,000.00 to your account 1000****9999 on 2026-01-20.",
      ),
    ).toMatchObject({
      amount: 2000,
      payerName: "Dawit Alemu",
      receiverName: "HANA CAFE",
      receiverAccount: "1000****9999",
    });
  });

  it("reads 'sent to NAME an amount of' and the beneficiary account by label", () => {
    expect(
      readSms(
        "You have sent to Meron Tadesse an amount of ETB 700.00 on 2026-02-14. Beneficiary account: 2519****1111",
      ),
    ).toMatchObject({ amount: 700, receiverName: "Meron Tadesse", receiverAccount: "2519****1111" });
  });

  it("reads nothing from a message that moves no money", () => {
    expect(readSms("Dear Customer, your balance is ETB 5,000.00. Thank you for banking with us.")).toEqual(
      {},
    );
  });
});

describe("links an SMS bubble broke across lines", () => {
  it("are joined again, but an amount with its currency on the next line is the cashier's note", () => {
    const link = "https://cbepay1.cbe.com.et/aureceipt?TID=DIPQ7RW2LX&PH=251911223344";
    expect(joinWrappedLinks(`${link.slice(0, 50)}\n${link.slice(50)}\nThank you`)).toBe(`${link}\nThank you`);
    expect(joinWrappedLinks(`${link}\n2500 birr`)).toBe(`${link}\n2500 birr`);
    expect(joinWrappedLinks(`${link}\n1,250.00 ETB`)).toBe(`${link}\n1,250.00 ETB`);
  });
});
